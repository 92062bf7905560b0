// What other parts of the web app may use from plans: the plan query and its progress save (the player's services).
export { planQuery, savePlanProgressMutation } from './api.ts';
