// What other parts of the web app may use from messaging: the home page's new-messages banner and
// the profile's Message button (starts a two-person thread and opens it).
export { MessagesBanner } from './MessagesBanner.tsx';
export { useStartThread } from './useStartThread.ts';
