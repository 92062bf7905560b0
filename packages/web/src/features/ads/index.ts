// What other parts of the web app may use from ads: the layout's ad zone and analytics loader.
export { Ads } from './Ads.tsx';
