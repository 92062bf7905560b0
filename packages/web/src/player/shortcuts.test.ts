import { describe, expect, it } from 'vitest';
import { shortcutFor } from './shortcuts.ts';

function press(key: string, target: EventTarget | null = document.body, mods: Partial<KeyboardEvent> = {}) {
  return shortcutFor({
    key,
    target,
    altKey: false,
    ctrlKey: false,
    metaKey: false,
    defaultPrevented: false,
    ...mods,
  });
}

describe('player shortcuts', () => {
  it('maps space, the arrows, M, S and ? to their actions', () => {
    expect(
      [' ', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'm', 'M', 's', 'S', '?', 'x'].map((k) =>
        press(k),
      ),
    ).toEqual([
      'togglePlay',
      'seekBack',
      'seekForward',
      'volumeUp',
      'volumeDown',
      'toggleMute',
      'toggleMute',
      'sleepTimer',
      'sleepTimer',
      'help',
      null,
    ]);
  });

  it('ignores keys typed in fields, inside popups, with modifiers, and Space on a button', () => {
    const input = document.createElement('input');
    const textarea = document.createElement('textarea');
    const dialog = document.createElement('div');
    dialog.setAttribute('role', 'dialog');
    const inDialog = document.createElement('span');
    dialog.append(inDialog);
    const button = document.createElement('button');
    expect(press('m', input)).toBeNull();
    expect(press(' ', textarea)).toBeNull();
    expect(press('ArrowUp', inDialog)).toBeNull();
    expect(press('s', document.body, { ctrlKey: true })).toBeNull();
    expect(press('m', document.body, { defaultPrevented: true })).toBeNull();
    expect(press(' ', button)).toBeNull();
    expect(press('m', button)).toBe('toggleMute');
  });

  it('leaves Space and the arrows to a focused scrolling box (a script), but not the other keys', () => {
    const box = document.createElement('div');
    box.setAttribute('data-own-keys', '');
    const inBox = document.createElement('span');
    box.append(inBox);
    for (const k of [' ', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown']) {
      expect(press(k, box), k).toBeNull();
      expect(press(k, inBox), k).toBeNull();
    }
    expect(press('m', box)).toBe('toggleMute');
    expect(press('?', box)).toBe('help');
  });
});
