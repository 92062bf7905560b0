/** The player's keyboard shortcuts, and which one a key press is (none while typing or in a popup). */

export type ShortcutAction =
  | 'togglePlay'
  | 'seekBack'
  | 'seekForward'
  | 'volumeUp'
  | 'volumeDown'
  | 'toggleMute'
  | 'sleepTimer'
  | 'help';

/** What the help popup lists, in order. */
export const SHORTCUTS: readonly { keys: readonly string[]; label: string; action: ShortcutAction }[] = [
  { keys: ['Space'], label: 'Play or pause', action: 'togglePlay' },
  { keys: ['←'], label: 'Back 10 seconds', action: 'seekBack' },
  { keys: ['→'], label: 'Forward 10 seconds', action: 'seekForward' },
  { keys: ['↑'], label: 'Volume up', action: 'volumeUp' },
  { keys: ['↓'], label: 'Volume down', action: 'volumeDown' },
  { keys: ['M'], label: 'Mute or unmute', action: 'toggleMute' },
  { keys: ['S'], label: 'Sleep timer', action: 'sleepTimer' },
  { keys: ['?'], label: 'These shortcuts', action: 'help' },
];

const BY_KEY: Record<string, ShortcutAction> = {
  ' ': 'togglePlay',
  ArrowLeft: 'seekBack',
  ArrowRight: 'seekForward',
  ArrowUp: 'volumeUp',
  ArrowDown: 'volumeDown',
  m: 'toggleMute',
  M: 'toggleMute',
  s: 'sleepTimer',
  S: 'sleepTimer',
  '?': 'help',
};

const SCROLL_KEYS = new Set<ShortcutAction | null>([
  'togglePlay',
  'seekBack',
  'seekForward',
  'volumeUp',
  'volumeDown',
]);

/** Keys typed into a field are not player shortcuts. */
function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
}

/**
 * The shortcut a key press asks for, or null: not while typing in a field, inside a popup
 * (its keys are its own), with Ctrl, Alt or Meta held, for Space on a button or link
 * (which activates that control), or for Space and arrows in a focused box marked data-own-keys.
 */
export function shortcutFor(
  e: Pick<KeyboardEvent, 'key' | 'target' | 'altKey' | 'ctrlKey' | 'metaKey' | 'defaultPrevented'>,
): ShortcutAction | null {
  if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTypingTarget(e.target)) return null;
  const target = e.target instanceof HTMLElement ? e.target : null;
  if (target?.closest('[role="dialog"], [aria-modal="true"]')) return null;
  const action = BY_KEY[e.key] ?? null;
  if (action === 'togglePlay' && target?.closest('button, a, summary')) return null;
  // A focused box that scrolls (a script) keeps Space and the arrows for scrolling.
  if (SCROLL_KEYS.has(action) && target?.closest('[data-own-keys]')) return null;
  return action;
}
