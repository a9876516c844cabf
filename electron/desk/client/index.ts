export * from './api-client';
export * from './api-error';
export * from './client-types';
export * from './rate-limit';
export * from './response-bounds';
