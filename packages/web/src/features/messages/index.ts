// What other parts of the web app may use from messaging: the home page's new-messages banner.
export { MessagesBanner } from './MessagesBanner.tsx';
