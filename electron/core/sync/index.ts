export * from './collections';
export * from './list-pull';
export * from './metadata-pull';
export * from './reconcile';
export * from './sync-engine';
