/** Registers the app's overlay kinds with their schemas, sizes and width limits. */
import type { OverlayBodyProps, OverlayRegistry } from '../../lib/overlay/overlay-registry';
import { lazyPage } from '../lazy-page';
import { CustomFeedOverlay, PortfolioOverlay, PreviewOverlay } from './overlay-bodies';
import {
  askNeedlParamsSchema,
  customFeedParamsSchema,
  portfolioParamsSchema,
  previewParamsSchema,
  reportParamsSchema,
} from './overlay-schemas';

/** The assistant's and the report's bodies load when first opened (the report brings the markdown renderer). */
const AskNeedlOverlay = lazyPage<OverlayBodyProps<unknown>>('Loading AskNeedl', () => import('../pages/ask-needl-pages').then((m) => m.AskNeedlOverlay));
const ReportOverlayBody = lazyPage('Loading the report', () =>
  import('../../features/reports/pages').then((m) => m.ReportOverlayBody),
);

export function registerOverlayKinds(registry: OverlayRegistry): void {
  registry.register({
    type: 'preview',
    title: 'Preview',
    schema: previewParamsSchema,
    size: 'variable',
    width: { min: 80, max: 80 },
    Component: PreviewOverlay,
  });
  registry.register({
    type: 'ask-needl',
    title: 'AskNeedl',
    schema: askNeedlParamsSchema,
    size: 'variable',
    width: { min: 35, max: 80, start: 35 },
    closable: false,
    docked: true,
    requiresFlag: 'ask_needl_copilot',
    Component: AskNeedlOverlay,
  });
  registry.register({
    type: 'custom-feed',
    title: 'Custom feed',
    schema: customFeedParamsSchema,
    size: 'large',
    width: { min: 50, max: 80 },
    Component: CustomFeedOverlay,
  });
  registry.register({
    type: 'portfolio',
    title: 'Portfolio',
    schema: portfolioParamsSchema,
    size: 'medium',
    width: { min: 50, max: 80 },
    Component: PortfolioOverlay,
  });
  registry.register({
    type: 'report',
    title: 'Report',
    schema: reportParamsSchema,
    size: 'variable',
    width: { min: 60, max: 80, start: 80 },
    Component: ReportOverlayBody,
  });
}
