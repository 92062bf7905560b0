// What the app shell composes from messaging: the home page's new-messages banner (a feature slot).
export { MessagesBanner } from './MessagesBanner.tsx';
