/**
 * The overlay framework's plug-in point. A feature registers an overlay kind: its type, the
 * schema its `overlay-` parameters must satisfy, its size and width limits, and the component
 * that renders its body. The shell reads the address and shows the matching kind.
 */
import type { ComponentType } from 'react';
import type { z } from 'zod';

/** The overlay types the address may name; any other value means no overlay. */
export const OVERLAY_TYPES = ['custom-feed', 'preview', 'ask-needl', 'portfolio', 'report'] as const;
export type OverlayType = (typeof OVERLAY_TYPES)[number];

export const isOverlayType = (value: string | null): value is OverlayType =>
  value !== null && (OVERLAY_TYPES as readonly string[]).includes(value);

/** small is 382 px wide; medium and large are capped at 864 and 1088 px; variable is set by dragging. */
export type OverlaySize = 'small' | 'medium' | 'large' | 'variable';

export const OVERLAY_SIZE_PX: Record<Exclude<OverlaySize, 'variable'>, number> = {
  small: 382,
  medium: 864,
  large: 1088,
};

/** Width limits in percent of the screen; `start` defaults to `min`. */
export interface OverlayWidth {
  min: number;
  max: number;
  start?: number;
}

export interface OverlayBodyProps<P> {
  params: P;
  close: () => void;
}

export interface OverlayKind<P = Record<string, unknown>> {
  type: OverlayType;
  title: string;
  /** Checks the parameters (without their `overlay-` prefix); absent means the kind cannot open. */
  schema?: z.ZodType<P>;
  size: OverlaySize;
  width: OverlayWidth;
  /**
   * Whether the panel offers a close button (the AskNeedl overlay does not: it has a collapse
   * control instead). Escape closes every kind.
   */
  closable?: boolean;
  /** Whether the page makes room for the panel instead of lying under it (read beside the page). */
  docked?: boolean;
  /** A feature flag that must be on for the overlay to show. */
  requiresFlag?: string;
  Component: ComponentType<OverlayBodyProps<P>>;
}

export interface OverlayRegistry {
  register<P>(kind: OverlayKind<P>): void;
  get(type: OverlayType): OverlayKind | undefined;
}

export function createOverlayRegistry(): OverlayRegistry {
  const kinds = new Map<OverlayType, OverlayKind>();
  return {
    register: (kind) => void kinds.set(kind.type, kind as unknown as OverlayKind),
    get: (type) => kinds.get(type),
  };
}

/** The registry the app's overlay kinds are registered in. */
export const overlayRegistry = createOverlayRegistry();
