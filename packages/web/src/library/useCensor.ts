import { censorTrigger } from '@mesmer/shared/domain/censor';
import { censorTriggerWords } from '@mesmer/shared/domain/censor-display';
import { useCallback } from 'react';
import { useCurrentUser } from '../features/auth/index.ts';

/**
 * Trigger censoring for viewers who turned on censorTriggers: `trigger` censors a
 * trigger name, `text` censors the given trigger names inside a file or playlist name.
 * For everyone else both return their input.
 */
export function useCensor() {
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
