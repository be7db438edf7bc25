/**
 * Reading and writing the `overlay-` query parameters: which overlay is open and with what.
 * Validation errors use the spec's messages.
 */
import { isOverlayType, type OverlayKind, type OverlayRegistry, type OverlayType } from './overlay-registry';

export const OVERLAY_PARAM_PREFIX = 'overlay-';

export const OVERLAY_ERRORS = {
  invalidParams: 'Invalid Overlay params supplied!',
  typeNotFound: 'Overlay Type not found!',
  schemaNotFound: 'Overlay Params Schema not found!',
} as const;

export class OverlayError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OverlayError';
  }
}

/** Returns the `overlay-` parameters of a query string, without the prefix. */
export function readOverlayParams(search: URLSearchParams): Record<string, string> {
  const params: Record<string, string> = {};
  search.forEach((value, key) => {
    if (key.startsWith(OVERLAY_PARAM_PREFIX)) params[key.slice(OVERLAY_PARAM_PREFIX.length)] = value;
  });
  return params;
}

/**
 * Returns the parameters of an overlay of `type` once its schema accepts them.
 * Throws an `OverlayError` with the spec's message when the type, its schema or the values are wrong.
 */
export function validateOverlayParams(
  registry: OverlayRegistry,
  type: OverlayType,
  raw: Record<string, string>,
): { kind: OverlayKind; params: Record<string, unknown> } {
  const kind = registry.get(type);
  if (!kind) throw new OverlayError(OVERLAY_ERRORS.typeNotFound);
  if (!kind.schema) throw new OverlayError(OVERLAY_ERRORS.schemaNotFound);
  const result = kind.schema.safeParse(raw);
  if (!result.success) throw new OverlayError(OVERLAY_ERRORS.invalidParams);
  return { kind, params: result.data };
}

export type OverlayResolution =
  | { status: 'none' }
  | { status: 'open'; kind: OverlayKind; params: Record<string, unknown> }
  | { status: 'invalid'; type: OverlayType; error: string };

/** Returns which overlay the query string asks for; an unknown overlay-type means none. */
export function resolveOverlay(registry: OverlayRegistry, search: URLSearchParams): OverlayResolution {
  const raw = readOverlayParams(search);
  if (!isOverlayType(raw.type ?? null)) return { status: 'none' };
  const type = raw.type as OverlayType;
  try {
    return { status: 'open', ...validateOverlayParams(registry, type, raw) };
  } catch (error) {
    return { status: 'invalid', type, error: error instanceof Error ? error.message : String(error) };
  }
}

/** Returns the query string with every `overlay-` parameter removed. */
export function withoutOverlayParams(search: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams();
  search.forEach((value, key) => {
    if (!key.startsWith(OVERLAY_PARAM_PREFIX)) next.append(key, value);
  });
  return next;
}

/** Returns the query string that opens an overlay, keeping the other parameters. */
export function withOverlay(search: URLSearchParams, type: OverlayType, params: Record<string, string> = {}): URLSearchParams {
  const next = withoutOverlayParams(search);
  next.set(`${OVERLAY_PARAM_PREFIX}type`, type);
  Object.entries(params).forEach(([key, value]) => next.set(`${OVERLAY_PARAM_PREFIX}${key}`, value));
  return next;
}

/** Returns `to` with the current `overlay-` parameters carried over, as navigation does. */
export function carryOverlayParams(to: string, currentSearch: string): string {
  const current = new URLSearchParams(currentSearch);
  const [path, query = ''] = to.split('?');
  const next = new URLSearchParams(query);
  current.forEach((value, key) => {
    if (key.startsWith(OVERLAY_PARAM_PREFIX) && !next.has(key)) next.set(key, value);
  });
  const text = next.toString();
  return text ? `${path}?${text}` : path;
}
