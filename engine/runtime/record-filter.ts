import { NotFoundError } from '../errors.js';
import { readPath } from '../http/index.js';
import type { ExcludeRecordRule } from '../manifest/index.js';
import type { ExtractedPage, RecordData } from './extract.js';

/** The rules of an action that apply under a config: a rule whose unless_config setting is true is lifted. */
export function activeExclusions(rules: readonly ExcludeRecordRule[] | undefined, config: Record<string, unknown>): ExcludeRecordRule[] {
  return (rules ?? []).filter((rule) => rule.unless_config === undefined || config[rule.unless_config] !== true);
}

function matching(record: RecordData, rules: readonly ExcludeRecordRule[]): ExcludeRecordRule | undefined {
  return rules.find((rule) => readPath(record, rule.field) === rule.equals);
}

/**
 * Applies an action's exclusion rules to a page: excluded records leave a list (the paging
 * fields stay the upstream's, so following pages still works), and a single record that is
 * excluded answers NOT_FOUND naming the setting that would include it.
 */
export function excludeRecords(page: ExtractedPage, rules: readonly ExcludeRecordRule[], single: boolean, label: string): ExtractedPage {
  if (rules.length === 0) return page;
  if (!single) return { ...page, records: page.records.filter((record) => !matching(record, rules)) };
  const rule = page.records[0] ? matching(page.records[0], rules) : undefined;
  if (!rule) return page;
  const lift = rule.unless_config ? `; set config ${rule.unless_config}: true to read such records` : '';
  throw new NotFoundError(`${label}: the record is left out (${rule.field} is ${JSON.stringify(rule.equals)})${lift}`, {
    details: [{ path: `/record/${rule.field.replaceAll('.', '/')}`, message: `is ${JSON.stringify(rule.equals)}: excluded${lift}` }],
  });
}
