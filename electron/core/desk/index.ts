export * from './desk-context';
export * from './desk-core';
export * from './event-hub';
export * from './handler-registry';
export * from './secret-store';
export * from './settings-store';
export * from './status-hub';
