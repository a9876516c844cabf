export * from '../../platform/secret-store';
export * from './desk-context';
export * from './desk-core';
export * from './event-hub';
export * from './handler-registry';
export * from './settings-store';
export * from './status-hub';
