export * from './api-client';
export * from './api-error';
export * from './change-stream';
export * from './client-types';
export * from './pairing';
export * from './pinned-connect';
export * from './rate-limit';
export * from './response-bounds';
