// What the app shell composes from patreon: the account page's card (a feature slot).
export { PatreonCard } from './PatreonCard.tsx';
