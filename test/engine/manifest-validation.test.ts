import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ManifestInvalidError, loadManifestFile, parseManifest, shippedManifests } from '../../engine/index.js';
import { MINIMAL_MANIFEST } from '../fixtures/minimal-manifest.js';

function problems(text: string): string[] {
  try {
    parseManifest(text, 'demo.yaml');
  } catch (error) {
    expect(error).toBeInstanceOf(ManifestInvalidError);
    return ((error as ManifestInvalidError).details ?? []).map((d) => `${d.path} ${d.message}`);
  }
  return [];
}

function lineOf(text: string, needle: string): number {
  const index = text.split('\n').findIndex((line) => line.includes(needle));
  if (index < 0) throw new Error(`fixture has no line with ${needle}`);
  return index + 1;
}

function broken(from: string, to: string): string {
  if (!MINIMAL_MANIFEST.includes(from)) throw new Error(`fixture lacks ${from}`);
  return MINIMAL_MANIFEST.replace(from, to);
}

describe('manifest validation', () => {
  test('the minimal fixture and every shipped manifest are valid', () => {
    expect(problems(MINIMAL_MANIFEST)).toEqual([]);
    expect([...shippedManifests().keys()]).toContain('hubspot');
  });

  test('three different mistakes are reported together, each at its file:line:col', () => {
    let text = broken('method: GET\n          path: /items', 'method: FETCH\n          path: /items');
    text = text.replace('cursor: "{{params.cursor}}"', 'cursor: "{{params.cursr}}"');
    text = text.replace('  get:\n        params:', '  get:\n        colour: blue\n        params:');
    const found = problems(text);
    expect(found).toHaveLength(3);
    expect(found[0]).toMatch(new RegExp(`^demo\\.yaml:${lineOf(text, 'method: FETCH')}:\\d+ .*must be equal to one of the allowed values`));
    expect(found.some((p) => p.startsWith(`demo.yaml:${lineOf(text, 'colour: blue')}:9 `) && p.includes('unknown property "colour"'))).toBe(true);
    expect(found.some((p) => p.startsWith(`demo.yaml:${lineOf(text, 'params.cursr')}:`) && p.includes('"params.cursr" is not declared'))).toBe(true);
  });

  test('YAML syntax errors carry their position', () => {
    const found = problems(broken('name: Demo API', 'name: [Demo API'));
    expect(found.length).toBeGreaterThan(0);
    expect(found[0]).toMatch(/^demo\.yaml:\d+:\d+ /);
  });

  test('duplicate keys are refused', () => {
    expect(problems(broken('name: Demo API', 'name: Demo API\nname: Again'))[0]).toMatch(/^demo\.yaml:3:1 .*[Uu]nique/);
  });

  test('missing required top-level fields are named', () => {
    const found = problems(broken('version: 1.0.0\n', ''));
    expect(found).toEqual([expect.stringMatching(/^demo\.yaml:1:1 \/ must have required property 'version'/)]);
  });

  const semantic: Array<[string, string, string, RegExp]> = [
    ['undeclared params variable', 'cursor: "{{params.cursor}}"', 'cursor: "{{params.nope}}"', /"params\.nope" is not declared in the params schema/],
    [
      'undeclared config variable',
      'base_url: https://api.example.com',
      'base_url: "https://{{config.host}}.example.com"',
      /"config\.host" is not declared in the config schema/,
    ],
    [
      'params not available in base_url',
      'base_url: https://api.example.com',
      'base_url: "https://{{params.limit}}.example.com"',
      /"params\.limit" is not available here \(allowed roots: config\)/,
    ],
    [
      'unknown credentials field in sign',
      'token: "{{credentials.token}}"',
      'token: "{{credentials.secret}}"',
      /"credentials\.secret" is not declared in the credentials schema/,
    ],
    ['unknown helper', 'cursor: "{{params.cursor}}"', 'cursor: "{{shout params.cursor}}"', /unknown helper "shout"/],
    ['template that does not parse', 'cursor: "{{params.cursor}}"', 'cursor: "{{params.cursor"', /template does not parse/],
    ['relative template paths', 'cursor: "{{params.cursor}}"', 'cursor: "{{this.cursor}}"', /"this\.cursor" is not allowed/],
    [
      'optional path variable',
      'required: [id]\n          properties:\n            id:',
      'properties:\n            id:',
      /path variable "params\.id" must be a required param/,
    ],
    ['param without description', 'limit: { type: integer, description: Page size. }', 'limit: { type: integer }', /"limit" needs a description/],
    ['required param not declared', 'required: [id]', 'required: [id, other]', /required "other" is not declared in properties/],
    ['list action without pagination', '        pagination: { type: body_token, token_path: next, param: cursor }\n', '', /needs a pagination/],
    ['pagination param not declared', 'param: cursor }', 'param: page }', /pagination param "page" is not a declared param/],
    ['get that returns records', 'response: { record: "" }', 'response: { records: data }', /a get action returns one record/],
    ['list that returns one record', 'response: { records: data }', 'response: { record: data }', /a list action returns records/],
    ['both records and record', 'response: { records: data }', 'response: { records: data, record: x }', /exactly one of "records"/],
    [
      'paginating a single record',
      'fields:\n          name: { default: null }',
      'pagination: { type: body_token, token_path: next, param: id }\n        fields:\n          name: { default: null }',
      /an action returning one record cannot paginate/,
    ],
    ['mapped field not in record', 'name: { default: null }', 'title: { default: null }', /mapped field "title" is not in the entity's record schema/],
    [
      'unknown error code',
      'http:\n  timeout_ms: 1000',
      'http:\n  error_map: [{ status: 402, code: PAYMENT, message: pay }]\n  timeout_ms: 1000',
      /"PAYMENT" is not an engine error code/,
    ],
    [
      'duplicate auth scheme',
      '    sign: { type: bearer, token: "{{credentials.token}}" }\n',
      '    sign: { type: bearer, token: "{{credentials.token}}" }\n  - name: token\n    credentials: { type: object, properties: {} }\n    sign: { type: basic, username: a, password: b }\n',
      /auth scheme "token" is declared twice/,
    ],
    [
      'rule naming an unknown param',
      '            cursor: { type: string, description: Page token. }\n',
      '            cursor: { type: string, description: Page token. }\n        rules:\n          - { name: needs-x, message: give x, schema: { required: [x] } }\n',
      /rule "needs-x" names "x", which is not a declared param/,
    ],
    [
      'rule field unknown',
      '            cursor: { type: string, description: Page token. }\n',
      '            cursor: { type: string, description: Page token. }\n        rules:\n          - { name: cap, message: too many, field: nope, count: { path: "limit", max: 1 } }\n',
      /rule field "nope" is not a declared param/,
    ],
    [
      'count rule on unknown param',
      '            cursor: { type: string, description: Page token. }\n',
      '            cursor: { type: string, description: Page token. }\n        rules:\n          - { name: cap, message: too many, count: { path: "groups.*", max: 1 } }\n',
      /rule "cap" counts "groups", which is not a declared param/,
    ],
    [
      'oauth field not declared',
      '    sign: { type: bearer, token: "{{credentials.token}}" }\n',
      '    sign: { type: bearer, token: "{{credentials.token}}" }\n    oauth2:\n      token_url: https://api.example.com/token\n      body_format: form\n      body: { grant_type: refresh_token }\n      response: { access_token: access_token, expires_in: expires_in }\n',
      /oauth2 stores "access_token" in the credentials/,
    ],
    [
      'wrong sign type',
      'sign: { type: bearer, token: "{{credentials.token}}" }',
      'sign: { type: digest, token: "{{credentials.token}}" }',
      /\/auth\/0\/sign has type "digest", which is not a kind allowed here/,
    ],
    [
      'schema keyword split off by a flow-mapping comma',
      'id: { type: string, description: Item id. }',
      'id: { type: string, description: Item id, the primary key. }',
      /schema does not compile: strict mode: unknown keyword: "the primary key\."/,
    ],
    [
      'sync through a get',
      '    actions:\n      list:',
      '    sync: { read: { action: get }, id: id, searchable: { id: string } }\n    actions:\n      list:',
      /sync reads "get", which is not a list-like action of items/,
    ],
    [
      'sync params the action refuses',
      '    actions:\n      list:',
      '    sync: { read: { action: list, params: { limit: "ten" } }, id: id, searchable: { id: string } }\n    actions:\n      list:',
      /sync params \/limit must be integer/,
    ],
    [
      'sync plan without searchable fields',
      '    actions:\n      list:',
      '    sync: { read: { action: list }, id: id }\n    actions:\n      list:',
      /\/entities\/items\/sync must have required property 'searchable'/,
    ],
    [
      'searchable field of an unknown type',
      '    actions:\n      list:',
      '    sync: { read: { action: list }, id: id, searchable: { id: text } }\n    actions:\n      list:',
      /\/entities\/items\/sync\/searchable\/id must be equal to one of the allowed values/,
    ],
    [
      'sync partition over an unknown entity',
      '    actions:\n      list:',
      '    sync: { read: { action: list, for_each: [{ as: folder, entity: folders, action: list }] }, id: id, searchable: { id: string } }\n    actions:\n      list:',
      /sync reads entity "folders", which this manifest does not declare/,
    ],
    [
      'sync template reading an unbound name',
      '    actions:\n      list:',
      '    sync: { read: { action: list, params: { cursor: "{{folder.id}}" } }, id: id, searchable: { id: string } }\n    actions:\n      list:',
      /template reads "folder\.id", but only these names are bound here: none/,
    ],
    [
      'computed field that is not searchable',
      '    actions:\n      list:',
      '    sync: { read: { action: list }, id: id, searchable: { id: string }, fields: { tags: { from: labels } } }\n    actions:\n      list:',
      /"tags" is not a searchable field of items/,
    ],
    [
      'value type on a field that is not searchable',
      '    actions:\n      list:',
      '    sync: { read: { action: list }, id: id, searchable: { id: string }, value_types: { price: number } }\n    actions:\n      list:',
      /"price" is not a searchable field; searchable fields are: id/,
    ],
    [
      'value type through an array field',
      '    actions:\n      list:',
      '    sync: { read: { action: list }, id: id, searchable: { id: string, tags: array }, value_types: { tags.size: number } }\n    actions:\n      list:',
      /"tags" is an array field: value types apply to one value, not through an array/,
    ],
    [
      'nested value type under a string field',
      '    actions:\n      list:',
      '    sync: { read: { action: list }, id: id, searchable: { id: string }, value_types: { id.x: number } }\n    actions:\n      list:',
      /"id" is a string field and has no sub-fields; a nested path needs an object field/,
    ],
    [
      'date-time value type on a boolean field',
      '    actions:\n      list:',
      '    sync: { read: { action: list }, id: id, searchable: { id: string, done: boolean }, value_types: { done: date-time } }\n    actions:\n      list:',
      /"done" is a boolean field: only a string, integer or number value can be typed date-time/,
    ],
    [
      'value type other than number and date-time',
      '    actions:\n      list:',
      '    sync: { read: { action: list }, id: id, searchable: { id: string }, value_types: { id: money } }\n    actions:\n      list:',
      /\/entities\/items\/sync\/value_types\/id must be equal to one of the allowed values/,
    ],
    [
      'sortable path that is not searchable',
      '    actions:\n      list:',
      '    sync: { read: { action: list }, id: id, searchable: { id: string }, sortable: [id, price] }\n    actions:\n      list:',
      /^demo\.yaml:30:\d+ "price" is not a searchable field; searchable fields are: id/,
    ],
    [
      'sortable array field',
      '    actions:\n      list:',
      '    sync: { read: { action: list }, id: id, searchable: { id: string, tags: array }, sortable: [tags] }\n    actions:\n      list:',
      /^demo\.yaml:30:\d+ "tags" is an array field: a sort needs one value per record/,
    ],
    [
      'sortable whole object',
      '    actions:\n      list:',
      '    sync: { read: { action: list }, id: id, searchable: { id: string, owner: object }, sortable: [owner] }\n    actions:\n      list:',
      /^demo\.yaml:30:\d+ "owner" is an object field: sort by a path inside it, such as "owner.<name>"/,
    ],
    [
      'sortable path listed twice',
      '    actions:\n      list:',
      '    sync: { read: { action: list }, id: id, searchable: { id: string }, sortable: [id, id] }\n    actions:\n      list:',
      /\/entities\/items\/sync\/sortable must NOT have duplicate items/,
    ],
    [
      'incremental params the action refuses',
      '    actions:\n      list:',
      '    sync: { read: { action: list }, id: id, searchable: { id: string }, incremental: { params: { limit: "soon", cursor: "{{since}}" }, cursor_field: updated } }\n    actions:\n      list:',
      /sync params \/limit must be integer/,
    ],
    [
      'sync children reading a name other than their parent',
      '    actions:\n      list:',
      '    sync: { read: { action: list }, children: { as: parent, when: count, entity: items, action: list, params: { cursor: "{{folder.id}}" } }, id: id, searchable: { id: string } }\n    actions:\n      list:',
      /template reads "folder\.id", but only these names are bound here: parent/,
    ],
    [
      'sync children through a get',
      '    actions:\n      list:',
      '    sync: { read: { action: list }, children: { as: parent, when: count, entity: items, action: get, params: { id: "{{parent.id}}" } }, id: id, searchable: { id: string } }\n    actions:\n      list:',
      /sync reads "get", which is not a list-like action of items/,
    ],
    [
      'sync children without when',
      '    actions:\n      list:',
      '    sync: { read: { action: list }, children: { as: parent, entity: items, action: list }, id: id, searchable: { id: string } }\n    actions:\n      list:',
      /children must have required property 'when'/,
    ],
    [
      'discover_fields under a field that is not searchable',
      '    actions:\n      list:',
      '    sync: { read: { action: list }, id: id, searchable: { id: string, attrs: object }, discover_fields: { request: { method: GET, path: /fields }, items: data, name: name, type: type, types: { int: number }, under: props, read_param: cursor } }\n    actions:\n      list:',
      /"props" is not a searchable field of items; discovered fields sit in a searchable object field/,
    ],
    [
      'discover_fields under a string field',
      '    actions:\n      list:',
      '    sync: { read: { action: list }, id: id, searchable: { id: string, attrs: object }, discover_fields: { request: { method: GET, path: /fields }, items: data, name: name, type: type, types: { int: number }, under: id, read_param: cursor } }\n    actions:\n      list:',
      /"id" is a string field; discovered fields sit in a searchable object field/,
    ],
    [
      'discover_fields read_param the reads do not take',
      '    actions:\n      list:',
      '    sync: { read: { action: list }, id: id, searchable: { id: string, attrs: object }, discover_fields: { request: { method: GET, path: /fields }, items: data, name: name, type: type, types: { int: number }, under: attrs, read_param: fields } }\n    actions:\n      list:',
      /"fields" is not a param of items list \(read by entities\.items\.sync\.read\)/,
    ],
    [
      'discover_fields read_param of another type',
      '    actions:\n      list:',
      '    sync: { read: { action: list }, id: id, searchable: { id: string, attrs: object }, discover_fields: { request: { method: GET, path: /fields }, items: data, name: name, type: type, types: { int: number }, under: attrs, read_param: limit } }\n    actions:\n      list:',
      /sync params \/limit must be integer/,
    ],
    [
      'discover_fields request reading params',
      '    actions:\n      list:',
      '    sync: { read: { action: list }, id: id, searchable: { id: string, attrs: object }, discover_fields: { request: { method: GET, path: "/fields/{{params.kind}}" }, items: data, name: name, type: type, types: { int: number }, under: attrs, read_param: cursor } }\n    actions:\n      list:',
      /template variable "params\.kind" is not available here \(allowed roots: config\)/,
    ],
    [
      'discover_fields request that writes',
      '    actions:\n      list:',
      '    sync: { read: { action: list }, id: id, searchable: { id: string, attrs: object }, discover_fields: { request: { method: POST, path: /fields }, items: data, name: name, type: type, types: { int: number }, under: attrs, read_param: cursor } }\n    actions:\n      list:',
      /discovery must be a read: a POST needs read_only: true/,
    ],
    [
      'discover_fields type mapped to an unknown value type',
      '    actions:\n      list:',
      '    sync: { read: { action: list }, id: id, searchable: { id: string, attrs: object }, discover_fields: { request: { method: GET, path: /fields }, items: data, name: name, type: type, types: { int: integer }, under: attrs, read_param: cursor } }\n    actions:\n      list:',
      /\/entities\/items\/sync\/discover_fields\/types\/int must be equal to one of the allowed values/,
    ],
    [
      'record_key narrowing an undeclared param',
      'pagination: { type: body_token, token_path: next, param: cursor }',
      'pagination: { type: record_key, field: created, id: id, param: cursor, page_size_param: limit, narrow: { descending: created_before } }',
      /"created_before" is not a declared param/,
    ],
    [
      'record_key ordered by an undeclared param',
      'pagination: { type: body_token, token_path: next, param: cursor }',
      'pagination: { type: record_key, field: created, id: id, param: cursor, page_size_param: limit, narrow: { descending: limit }, order: { param: sort, value: created } }',
      /"sort" is not a declared param/,
    ],
    [
      'search declared as an HTTP action',
      '      get:\n        params:',
      '      search:\n        params:',
      /must be equal to one of the allowed values|property name must be valid/,
    ],
    [
      'unknown action name',
      '      get:\n        params:',
      '      fetch:\n        params:',
      /must be equal to one of the allowed values|property name must be valid/,
    ],
    [
      'a manifest without a credentials check',
      'check: { entity: items, action: list, params: { limit: 1 } }\n',
      '',
      /^demo\.yaml:1:1 \/ must have required property 'check'/,
    ],
    [
      'check naming an unknown entity',
      'check: { entity: items,',
      'check: { entity: things,',
      /names entity "things", which this manifest does not declare; entities: items/,
    ],
    [
      'check naming an unknown action',
      'action: list, params: { limit: 1 } }',
      'action: lst, params: { limit: 1 } }',
      /names action "lst", which items does not have; actions: list, get/,
    ],
    ['check params the action refuses', 'params: { limit: 1 } }', 'params: { limit: "one" } }', /check params \/limit must be integer/],
    [
      'check that needs a config setting',
      'path: /items\n          query:',
      'path: /items\n          required_config: [region]\n          query:',
      /the check runs with the credentials alone, but items list needs config region/,
    ],
    [
      'config_lookup of an undeclared setting',
      'check: { entity: items, action: list, params: { limit: 1 } }\n',
      'check: { entity: items, action: list, params: { limit: 1 } }\nconfig_lookup: { zone: { entity: items, action: list, field: name } }\n',
      /"zone" is not declared in the config schema/,
    ],
    [
      'config_lookup field not in the record',
      'check: { entity: items, action: list, params: { limit: 1 } }\n',
      'check: { entity: items, action: list, params: { limit: 1 } }\nconfig_lookup: { region: { entity: items, action: list, field: label } }\n',
      /field "label" is not in the record schema of items/,
    ],
    [
      'config_lookup through a get',
      'check: { entity: items, action: list, params: { limit: 1 } }\n',
      'check: { entity: items, action: list, params: { limit: 1 } }\nconfig_lookup: { region: { entity: items, action: get, field: name } }\n',
      /items get returns one record; a lookup lists the values/,
    ],
    [
      'exclude_records on a field not in the record',
      '        pagination: { type: body_token, token_path: next, param: cursor }\n',
      '        pagination: { type: body_token, token_path: next, param: cursor }\n        exclude_records: [{ field: secret.flag, equals: true }]\n',
      /"secret" is not in the record schema of items/,
    ],
    [
      'exclude_records lifted by a setting that is not boolean',
      '        pagination: { type: body_token, token_path: next, param: cursor }\n',
      '        pagination: { type: body_token, token_path: next, param: cursor }\n        exclude_records: [{ field: name, equals: hidden, unless_config: region }]\n',
      /"region" must be a boolean setting \(type: boolean\)/,
    ],
  ];

  test('a valid discover_fields loads, and a mistake in it is reported at the line of the sync plan', () => {
    const plan = '    sync: { read: { action: list }, id: id, searchable: { id: string, attrs: object }, ' + '%s }\n    actions:\n      list:';
    const valid = broken(
      '    actions:\n      list:',
      plan.replace(
        '%s',
        'discover_fields: { request: { method: GET, path: /fields }, items: data, name: name, type: type, types: { int: number }, under: attrs, read_param: cursor }',
      ),
    );
    expect(problems(valid)).toEqual([]);
    const bad = broken(
      '    actions:\n      list:',
      plan.replace(
        '%s',
        'discover_fields: { request: { method: GET, path: /fields }, items: data, name: name, type: type, types: { int: number }, under: attrs, read_param: fields }',
      ),
    );
    const line = lineOf(bad, 'discover_fields');
    // The column of the read_param value: the problem points at the name the reads do not take.
    const column = bad.split('\n')[line - 1]!.indexOf('read_param: fields') + 'read_param: '.length + 1;
    expect(problems(bad)).toEqual([`demo.yaml:${line}:${column} "fields" is not a param of items list (read by entities.items.sync.read)`]);
  });

  test.each(semantic)('%s', (_name, from, to, expected) => {
    const found = problems(broken(from, to));
    expect(
      found.some((p) => expected.test(p)),
      found.join('\n'),
    ).toBe(true);
    for (const p of found) expect(p).toMatch(/^demo\.yaml:\d+:\d+ /);
  });

  test('loadManifestFile names the file it read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'manifest-'));
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, broken('param: cursor }', 'param: page }'));
    expect(() => loadManifestFile(file)).toThrow(/bad\.yaml:\d+:\d+ .*pagination param "page"/);
  });
});

describe('host lists', () => {
  const egress = readFileSync(new URL('../fixtures/egress-localhost.yaml', import.meta.url), 'utf8');

  function edited(text: string, from: string, to: string): string {
    if (!text.includes(from)) throw new Error(`fixture lacks ${from}`);
    // A function, so that `$'` in a replacement stays literal.
    return text.replace(from, () => to);
  }

  const cases: Array<[string, string, string, string, RegExp]> = [
    ['a manifest without hosts', MINIMAL_MANIFEST, 'hosts:\n  api: [api.example.com]\n', '', /^demo\.yaml:1:1 \/ must have required property 'hosts'/],
    [
      'a base_url host that is not listed',
      MINIMAL_MANIFEST,
      'base_url: https://api.example.com',
      'base_url: https://other.example.com',
      /^demo\.yaml:4:\d+ host "other\.example\.com" is not in hosts\.api$/,
    ],
    [
      'an http base_url',
      MINIMAL_MANIFEST,
      'base_url: https://api.example.com',
      'base_url: http://api.example.com',
      /^demo\.yaml:4:\d+ "http:\/\/api\.example\.com" must be https/,
    ],
    [
      'a regular expression as a host',
      MINIMAL_MANIFEST,
      'api: [api.example.com]',
      `api: ['^api\\.example\\.com$']`,
      /^demo\.yaml:6:\d+ \/hosts\/api\/0 must match pattern/,
    ],
    [
      'an IP address as a host',
      MINIMAL_MANIFEST,
      'api: [api.example.com]',
      'api: [api.example.com, 10.0.0.1]',
      /^demo\.yaml:6:\d+ \/hosts\/api\/1 must match pattern/,
    ],
    [
      'a wildcard that is not the first label',
      MINIMAL_MANIFEST,
      'api: [api.example.com]',
      'api: [api.example.com, "api.*.com"]',
      /\/hosts\/api\/1 must match pattern/,
    ],
    [
      'a list for requests the manifest never makes',
      MINIMAL_MANIFEST,
      'api: [api.example.com]\n',
      'api: [api.example.com]\n  files: [files.example.com]\n',
      /^demo\.yaml:7:\d+ hosts\.files is declared, but no request of this manifest is for files$/,
    ],
    [
      'base_url_from without hosts.account',
      MINIMAL_MANIFEST,
      'sign: { type: bearer, token: "{{credentials.token}}" }',
      'sign: { type: bearer, token: "{{credentials.token}}" }\n    base_url_from: { field: token }',
      /base_url_from needs hosts\.account/,
    ],
    [
      'the regex host_pattern, replaced by hosts.account',
      MINIMAL_MANIFEST,
      'sign: { type: bearer, token: "{{credentials.token}}" }',
      'sign: { type: bearer, token: "{{credentials.token}}" }\n    base_url_from: { field: token, host_pattern: "^x$" }',
      /has unknown property "host_pattern"/,
    ],
    ['an OAuth scheme without hosts.token', egress, '  token: [localhost]\n', '', /^demo\.yaml:\d+:\d+ a scheme that refreshes tokens needs hosts\.token$/],
    [
      'a literal token_url host that is not listed',
      egress,
      'token_url: "https://localhost:{{config.port}}/oauth/token"',
      'token_url: https://auth.example.com/oauth/token',
      /host "auth\.example\.com" is not in hosts\.token/,
    ],
    ['a download action without hosts.files', egress, '  files: [localhost]\n', '', /a download action needs hosts\.files/],
  ];

  test.each(cases)('%s fails at load with its file:line:col', (_name, text, from, to, expected) => {
    const found = problems(edited(text, from, to));
    expect(
      found.some((p) => expected.test(p)),
      found.join('\n'),
    ).toBe(true);
    for (const p of found) expect(p).toMatch(/^demo\.yaml:\d+:\d+ /);
  });

  test('a map over literal base URLs is checked URL by URL', () => {
    const text = edited(
      MINIMAL_MANIFEST,
      'base_url: https://api.example.com',
      `base_url: "{{map config.region EU='https://api.example.com' US='https://api.example.net'}}"`,
    );
    expect(problems(text)).toEqual([expect.stringMatching(/^demo\.yaml:4:\d+ host "api\.example\.net" is not in hosts\.api$/)]);
  });
});

describe('what agents see (MCP tools)', () => {
  const withHints = (hints: string): string => broken('  items:\n    record:', `  items:\n    agent:\n${hints}    record:`);
  /** 1-based line:col of `needle` inside the line holding it. */
  const at = (text: string, line: string, needle: string): string => `${lineOf(text, line)}:${text.split('\n')[lineOf(text, line) - 1]!.indexOf(needle) + 1}`;

  test('agent hints load, and every wrong one fails at its file:line:col', () => {
    expect(problems(withHints('      when_to_use: Items of the demo API.\n      example_questions: [Which items are new?]\n'))).toEqual([]);
    const text = withHints('      when_to_use: ""\n      example_questions: [Same?, Same?]\n      audience: sales\n');
    expect(problems(text)).toEqual([
      `demo.yaml:${at(text, 'audience: sales', 'audience')} /entities/items/agent has unknown property "audience"`,
      `demo.yaml:${at(text, 'when_to_use: ""', '""')} /entities/items/agent/when_to_use must NOT have fewer than 1 characters`,
      `demo.yaml:${at(text, 'example_questions:', '[')} /entities/items/agent/example_questions must NOT have duplicate items (items ## 1 and 0 are identical)`,
    ]);
  });

  test('a list param named cursor that is not the pagination param fails at load', () => {
    const paged = broken(
      '            cursor: { type: string, description: Page token. }\n',
      '            cursor: { type: string, description: A bookmark. }\n            page_token: { type: string, description: Page token. }\n',
    );
    const text = paged.replace('param: cursor }', 'param: page_token }');
    expect(problems(text)).toEqual([
      `demo.yaml:${at(text, 'A bookmark', '{')} a param named "cursor" must be the pagination param: MCP tools page with their own "cursor" argument, which would hide this one`,
    ]);
    // A get takes no tool cursor, so its own cursor param hides nothing.
    expect(
      problems(
        broken(
          '            id: { type: string, description: Item id. }\n',
          '            id: { type: string, description: Item id. }\n            cursor: { type: string, description: A bookmark. }\n',
        ),
      ),
    ).toEqual([]);
  });

  test('an entity whose tool names would pass 64 characters fails at load', () => {
    // "<type>-<6 id characters>-items-list": 47 + 18 = 65 characters.
    const longest = `demo-${'x'.repeat(42)}`;
    expect(problems(broken('type: demo', `type: ${longest.slice(0, -1)}`))).toEqual([]);
    const text = broken('type: demo', `type: ${longest}`);
    expect(problems(text)).toEqual([
      `demo.yaml:${at(text, '    record:', 'record')} MCP tool names of "items" reach 65 characters (${longest}-xxxxxx-items-list, x for the connector id); clients take at most 64: shorten the type or the entity name`,
    ]);
  });
});
