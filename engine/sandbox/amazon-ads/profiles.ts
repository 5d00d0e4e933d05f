/**
 * `GET /v2/profiles` and `GET /v2/profiles/{profileId}` (API-NOTES A.3): no Scope header, legacy
 * error bodies, only the host region's profiles (A.1).
 */
import type { FakeRequest } from '../fake-server.js';
import { lastParam, listParam } from '../param-map.js';
import { jsonResponse, type FakeResponse } from '../responses.js';
import type { AdsContext } from './context.js';
import { legacyError } from './errors.js';
import { ACCOUNT_TYPES, HOST_REGION, type AdsProfile } from './model.js';

/** A.3 `apiProgram` values. */
const API_PROGRAMS = ['billing', 'campaign', 'paymentMethod', 'store', 'report', 'account', 'posts'];
/** A.3 `accessLevel` values. */
const ACCESS_LEVELS = ['edit', 'view'];

/**
 * Lists the NA profiles as a bare JSON array (A.3), filtered by `profileTypeFilter` (comma list
 * of seller, vendor, agency, on `accountInfo.type`) and `validPaymentMethodFilter` (true/false).
 * `apiProgram` and `accessLevel` are validated and otherwise change nothing: the fake's user has
 * view+edit on every program of every profile. An unknown filter value -> 400 INVALID_ARGUMENT.
 */
export function listProfiles(ctx: AdsContext, req: FakeRequest): FakeResponse {
  let profiles = ctx.data.profiles(HOST_REGION);
  const types = listParam(req.query, 'profileTypeFilter');
  if (types) {
    const unknown = types.find((type) => !(ACCOUNT_TYPES as readonly string[]).includes(type));
    if (unknown !== undefined) return invalidValue('profileTypeFilter', unknown, ACCOUNT_TYPES);
    profiles = profiles.filter((profile) => types.includes(profile.accountInfo.type));
  }
  const validPayment = lastParam(req.query, 'validPaymentMethodFilter');
  if (validPayment !== undefined) {
    if (validPayment !== 'true' && validPayment !== 'false') return invalidValue('validPaymentMethodFilter', validPayment, ['true', 'false']);
    profiles = profiles.filter((profile) => profile.accountInfo.validPaymentMethod === (validPayment === 'true'));
  }
  const program = lastParam(req.query, 'apiProgram');
  if (program !== undefined && !API_PROGRAMS.includes(program)) return invalidValue('apiProgram', program, API_PROGRAMS);
  const access = lastParam(req.query, 'accessLevel');
  if (access !== undefined && !ACCESS_LEVELS.includes(access)) return invalidValue('accessLevel', access, ACCESS_LEVELS);
  return jsonResponse(200, profiles.map(copyProfile));
}

/**
 * One NA profile; 404 `{"code":"NOT_FOUND","details":"Profile not found"}` for an unknown id or a
 * profile of another region (A.3), 400 for an id that is not a number.
 */
export function getProfile(ctx: AdsContext, req: FakeRequest): FakeResponse {
  const raw = req.params['profileId'] ?? '';
  if (!/^\d{1,16}$/.test(raw)) return legacyError(400, 'INVALID_ARGUMENT', `Invalid profileId: ${raw}`);
  const profile = ctx.data.hostProfile(Number(raw));
  if (!profile) return legacyError(404, 'NOT_FOUND', 'Profile not found');
  return jsonResponse(200, copyProfile(profile));
}

function invalidValue(name: string, value: string, allowed: readonly string[]): FakeResponse {
  return legacyError(400, 'INVALID_ARGUMENT', `Invalid value '${value}' for ${name}; allowed values: ${allowed.join(', ')}`);
}

function copyProfile(profile: AdsProfile): AdsProfile {
  return { ...profile, accountInfo: { ...profile.accountInfo } };
}
