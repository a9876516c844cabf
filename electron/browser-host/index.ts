export * from './browser-host';
export * from './content-security-policy';
export * from './request-guard';
export * from './static-files';
