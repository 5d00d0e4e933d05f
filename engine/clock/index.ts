export { systemClock, type Clock, type ClockTimer } from './clock.js';
export { createManualClock, type ManualClock, type ScheduledWait } from './manual-clock.js';
export { IdleWait } from './idle-wait.js';
