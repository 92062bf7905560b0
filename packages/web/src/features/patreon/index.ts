// What other parts of the web app may use from patreon: the account page's card and its anchor.
export { PATREON_SECTION_ID, PatreonCard } from './PatreonCard.tsx';
