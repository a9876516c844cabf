export * from './api-client';
export * from './api-error';
export * from './rate-limit';
export * from './response-bounds';
