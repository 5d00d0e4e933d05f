import type { ConfigLookup, Manifest } from './types.js';

/** One config setting that some actions need, which of them, and how a user finds its value. */
export interface ConfigNeed {
  setting: string;
  /** Entity -> the actions of it that need the setting (request.required_config). */
  needed_by: Record<string, string[]>;
  /** The action whose records hold the values (manifest config_lookup), when the manifest names one. */
  find_with?: ConfigLookup;
  /** The same in words, for error messages and answers. */
  message: string;
}

/**
 * Where a user finds a setting's value, in words ("find one with profiles list (field
 * profileId)"), or an empty string when the manifest names no lookup.
 */
export function lookupHint(manifest: Manifest, setting: string): string {
  const lookup = manifest.config_lookup?.[setting];
  return lookup ? `find one with ${lookup.entity} ${lookup.action} (field ${lookup.field})` : '';
}

function describeNeed(manifest: Manifest, setting: string, neededBy: Record<string, string[]>): string {
  const entities = Object.keys(neededBy);
  const who = entities.length === 1 ? `${entities[0]} needs` : `${entities.slice(0, -1).join(', ')} and ${entities.at(-1)} need`;
  const hint = lookupHint(manifest, setting);
  return `${who} config.${setting}${hint ? `: ${hint}` : ''}`;
}

/**
 * Every config setting that actions of the manifest require, derived from their
 * request.required_config (written once, in the actions), with the lookup that finds it.
 */
export function configNeeds(manifest: Manifest): ConfigNeed[] {
  const bySetting = new Map<string, Record<string, string[]>>();
  for (const [entity, spec] of Object.entries(manifest.entities)) {
    for (const [action, actionSpec] of Object.entries(spec.actions)) {
      for (const setting of actionSpec.request.required_config ?? []) {
        const neededBy = bySetting.get(setting) ?? {};
        (neededBy[entity] ??= []).push(action);
        bySetting.set(setting, neededBy);
      }
    }
  }
  return [...bySetting].map(([setting, neededBy]) => {
    const lookup = manifest.config_lookup?.[setting];
    return { setting, needed_by: neededBy, ...(lookup ? { find_with: lookup } : {}), message: describeNeed(manifest, setting, neededBy) };
  });
}

/** The needs a connector's config leaves unmet: the actions it cannot run until a setting is added. */
export function missingConfig(manifest: Manifest, config: Record<string, unknown>): ConfigNeed[] {
  return configNeeds(manifest).filter((need) => config[need.setting] === undefined || config[need.setting] === '');
}
