// What other parts of the web app may use from triggers: the trigger list query.
export { triggersQuery } from './api.ts';
