/** What other modules may use of insights besides its service: rolling up an ending session, in its transaction. */
export { rollUpSession } from './insights-rollups.ts';
