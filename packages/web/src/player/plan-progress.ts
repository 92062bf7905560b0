/**
 * Finishing the plan's current day unlocks the next: saved on the server for signed-in
 * listeners, and kept in the player either way so an open plan page follows at once.
 */
import { planPositionAfterDay } from '@mesmer/shared/domain/player-queue';
import type { PlayerStore } from './store.ts';
import type { Notify, PlayerPlan, PlayerServices } from './types.ts';

export function createPlanProgress(deps: {
  store: PlayerStore;
  services: () => PlayerServices;
  notify: Notify;
}) {
  const { store, notify } = deps;

  function unlock(plan: PlayerPlan, next: number) {
    const positions = store.getState().planPositions;
    store.setState({ planPositions: { ...positions, [plan.id]: next } });
    notify(
      'success',
      'Day complete!',
      next > plan.dayCount ? `You finished ${plan.name}.` : 'The next day is unlocked.',
    );
  }

  return {
    /** Playback finished the last track of `plan`'s day by itself. */
    async dayFinished(plan: PlayerPlan) {
      const services = deps.services();
      if (services.currentUser()) {
        try {
          const position = await services.planPosition(plan);
          const next = planPositionAfterDay(position, plan.dayIndex, plan.dayCount);
          if (next === position) return;
          await services.savePlanPosition(plan, next);
          unlock(plan, next);
        } catch {
          // Progress stays where it was; the listener can play the day again.
        }
        return;
      }
      const position = store.getState().planPositions[plan.id] ?? plan.position ?? 1;
      const next = planPositionAfterDay(position, plan.dayIndex, plan.dayCount);
      if (next !== position) unlock(plan, next);
    },
  };
}
