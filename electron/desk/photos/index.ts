export * from './photo-cache';
