import { censorTrigger } from '@mesmer/shared/domain/censor';
import { censorTriggerWords } from '@mesmer/shared/domain/censor-display';
import { useCallback } from 'react';
import { useCurrentUser } from '../api/auth.ts';

/**
 * Trigger censoring for viewers who turned on censorTriggers: `trigger` censors a
 * trigger name, `text` censors the given trigger names inside a file or playlist name.
 * For everyone else both return their input.
 */
export interface Censor {
  trigger: (name: string) => string;
  text: (value: string, triggerNames: readonly string[]) => string;
}

/** Call it once per list and hand it to the rows: each call is a subscription to the signed-in user. */
export function useCensor(): Censor {
  const { user } = useCurrentUser();
  const on = !!user?.censorTriggers;
  const trigger = useCallback((name: string) => (on ? (censorTrigger(name) ?? name) : name), [on]);
  const text = useCallback(
    (value: string, triggerNames: readonly string[]) =>
      on ? censorTriggerWords(value, triggerNames) : value,
    [on],
  );
  return { trigger, text };
}
