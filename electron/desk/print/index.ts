export * from './contract-service';
export * from './fee';
export * from './fonts';
export * from './pdf-document';
export * from './photo';
export * from './print-service';
export * from './public-page';
export * from './words';
