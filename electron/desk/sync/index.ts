export * from './collections';
export * from './connection';
export * from './list-pull';
export * from './metadata-pull';
export * from './reconcile';
export * from './sync-engine';
export * from './sync-service';
