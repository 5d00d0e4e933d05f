import type { SyncPlan, SyncPlanRead } from './types.js';

/** The reads of a sync plan as a list, whichever form the manifest used (one read or several). */
export function planReads(plan: SyncPlan): SyncPlanRead[] {
  return Array.isArray(plan.read) ? plan.read : [plan.read];
}
