/** What other modules may use of listening besides its service: the served byte ranges' arithmetic (insights' retention). */
export { servedBytes } from './served-ranges.ts';
