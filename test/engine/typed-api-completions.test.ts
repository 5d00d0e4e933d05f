/**
 * Issue 14: an editor offers only what exists. The TypeScript language service, over a user's
 * project that uses the built package (test/support/package-project.ts), completes entity, action
 * and param names from the manifests, and offers `download` only where an entity downloads.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PackageProject } from '../support/package-project.js';

const USER_CODE = `import { connect } from 'connector-engine';
const hubspot = connect('hubspot', { credentials: { access_token: 'pat' } });
const asana = connect('asana', { credentials: { token: 'token' } });
const hosted = connect('hubspot', { hosted: { baseUrl: 'http://127.0.0.1:8080', externalUserId: 'user-1', clientId: 'cli', clientSecret: 'secret' } });
void hubspot.execute('contacts', 'list', {});
void hubspot.execute('deals', 'get', { dealId: '1' });
void hubspot.records('contacts', 'api_search');
void asana.records('workspaces', 'list');
void asana.download('attachments', { attachment_gid: '1' });
void hosted.execute('deals', 'search', { query: {} });
`;

let project: PackageProject | undefined;
/** What the editor offers in the user's module with the caret right after `before`. */
function completions(before: string): string[] {
  if (!project) throw new Error('the project was not made');
  return project.completions('user.mts', before);
}

beforeAll(() => {
  project = new PackageProject({ 'user.mts': USER_CODE });
});
afterAll(() => project?.remove());

describe('completions list only real entities, actions and params', () => {
  test('entities, then the actions of the entity named', () => {
    expect(completions("hubspot.execute('")).toEqual(['companies', 'contacts', 'deals', 'objects', 'schemas', 'tickets']);
    expect(completions("hubspot.execute('contacts', '")).toEqual(['api_search', 'get', 'list', 'search']);
    expect(completions("hubspot.execute('deals', '")).toEqual(['api_search', 'get', 'list', 'search']);
    expect(completions("hosted.execute('deals', '")).toEqual(['api_search', 'get', 'list', 'search']);
  });

  test('the params of the action named', () => {
    expect(completions("hubspot.execute('contacts', 'list', {")).toEqual(['after', 'archived', 'associations', 'limit', 'properties', 'propertiesWithHistory']);
    // A param written already (dealId, query) is not offered again.
    expect(completions("hubspot.execute('deals', 'get', {")).toEqual(['archived', 'associations', 'idProperty', 'properties', 'propertiesWithHistory']);
    expect(completions("hosted.execute('deals', 'search', {")).toEqual(['cursor', 'fields', 'limit']);
  });

  test('records() offers list-like actions, and entities that have one', () => {
    expect(completions("hubspot.records('contacts', '")).toEqual(['api_search', 'list']);
    const asanaLists = completions("asana.records('");
    expect(asanaLists).toContain('workspaces');
    expect(asanaLists).toContain('workspace_task_search');
    // Teams, tags and sections are read by get only.
    expect(asanaLists.filter((entity) => ['teams', 'tags', 'sections'].includes(entity))).toEqual([]);
  });

  test('download is offered only where an entity downloads, and only for it', () => {
    const hubspotMembers = completions('hubspot.');
    expect(hubspotMembers).toEqual(expect.arrayContaining(['execute', 'records', 'sync', 'checkCredentials', 'close']));
    expect(hubspotMembers).not.toContain('download');
    expect(completions('hosted.')).not.toContain('download');
    expect(completions('asana.')).toContain('download');
    expect(completions("asana.download('")).toEqual(['attachments']);
  });
});
