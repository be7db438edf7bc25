import { useEffect, useState } from 'react';
import { usePlanCheck } from '../../../lib/pricing';
import { BUILDER_PAGES, isBuilderPage, type BuilderNav, type BuilderParams } from '../builder-pages';
import { UNKNOWN_PAGE } from '../messages';
import { CreatePage, EditPage, TemplateCustomizePage } from './editor-pages';
import { PlanNotice } from './plan-notice';
import { SelectAiFeedTypePage, SelectFeedTypePage } from './choice-pages';
import { ReviewSuggestionsPage, SuggestionsPage } from './suggestion-pages';
import { TemplateReadonlyPage } from './template-pages';

/** The pages that make a new feed (the plan must include adding feeds). */
const CREATING = new Set(['select-feed-type', 'feed-template-readonly', 'feed-template-customize', 'create-feed', 'create-ai-feed', 'select-ai-feed-type', 'feed-suggestion', 'review-feed-suggestion']);

export type AiFocus = 'companies' | 'topics';

/**
 * The custom-feed builder, the same as a page (/custom-feed) and as an overlay: the `page`
 * parameter picks what it shows. An unknown page is logged and shows nothing (the spec).
 */
export function FeedBuilder({ params, nav }: { params: BuilderParams; nav: BuilderNav }) {
  const { page } = params;
  const known = isBuilderPage(page);
  const plan = usePlanCheck('add_feed');
  const [aiFocus, setAiFocus] = useState<AiFocus>('companies');

  useEffect(() => {
    if (!known) console.error(UNKNOWN_PAGE, page);
  }, [known, page]);

  if (!known) return null;
  if (CREATING.has(page) && plan.status === 'ineligible') return <PlanNotice prompt={plan} what="Creating feeds" />;
  const title = BUILDER_PAGES[page];
  switch (page) {
    case 'select-feed-type':
      return <SelectFeedTypePage nav={nav} />;
    case 'select-ai-feed-type':
      return (
        <SelectAiFeedTypePage
          onChoose={(focus) => {
            setAiFocus(focus);
            nav.go('create-ai-feed');
          }}
        />
      );
    case 'feed-template-readonly':
      return <TemplateReadonlyPage templateId={params.templateId} nav={nav} />;
    case 'feed-template-customize':
      return <TemplateCustomizePage templateId={params.templateId} nav={nav} title={title} />;
    case 'create-feed':
      return <CreatePage kind="keyword" seed={params.searchTemplate} nav={nav} title={title} />;
    case 'create-ai-feed':
      return <CreatePage kind="ai" aiFocus={aiFocus} nav={nav} title={title} />;
    case 'edit-feed':
    case 'edit-ai-feed':
      return <EditPage boardId={params.boardId} nav={nav} title={title} />;
    case 'feed-suggestion':
      return <SuggestionsPage nav={nav} />;
    case 'review-feed-suggestion':
      return <ReviewSuggestionsPage ids={params.suggestionIds ?? []} nav={nav} />;
  }
}
