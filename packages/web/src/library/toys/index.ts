// What the account page and the shell use of the toy drivers: the settings panels that connect a toy to the
// player (Intiface Central / Buttplug here; Lovense beside it).

export { HapticsConnection } from './HapticsConnection.tsx';
export { type HapticsProvider, loadHapticsProvider, saveHapticsProvider } from './haptics-provider.ts';
export { IntifacePanel } from './intiface/IntifacePanel.tsx';
export { disconnectIntiface } from './intiface/instance.ts';
export { LovensePanel } from './lovense/LovensePanel.tsx';
