export * from './dashboard-queries';
