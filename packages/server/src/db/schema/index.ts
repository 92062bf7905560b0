export * from './accounts.ts';
export * from './community.ts';
export * from './generations.ts';
export * from './insights.ts';
export * from './integrations.ts';
export * from './library.ts';
export * from './listening.ts';
export * from './uploads.ts';
