/**
 * The app's icons, from lucide-react, one module per icon so the bundle carries only these.
 * They are SVGs drawn in `currentColor`, so they show on any machine (emoji and symbol glyphs
 * need a font that has them) and follow the text's colour. lucide marks an icon `aria-hidden`
 * unless it is given a label: the button around an icon carries the name.
 */
export { default as ArrowLeftIcon } from 'lucide-react/icons/arrow-left';
export { default as BellIcon } from 'lucide-react/icons/bell';
export { default as CheckIcon } from 'lucide-react/icons/check';
export { default as ChevronDownIcon } from 'lucide-react/icons/chevron-down';
export { default as ChevronLeftIcon } from 'lucide-react/icons/chevron-left';
export { default as ChevronRightIcon } from 'lucide-react/icons/chevron-right';
export { default as CircleIcon } from 'lucide-react/icons/circle';
export { default as CopyIcon } from 'lucide-react/icons/copy';
export { default as PanelRightCloseIcon } from 'lucide-react/icons/panel-right-close';
export { default as SearchIcon } from 'lucide-react/icons/search';
export { default as StarIcon } from 'lucide-react/icons/star';
export { default as ThumbsDownIcon } from 'lucide-react/icons/thumbs-down';
export { default as ThumbsUpIcon } from 'lucide-react/icons/thumbs-up';
export { default as TrendingDownIcon } from 'lucide-react/icons/trending-down';
export { default as TrendingUpIcon } from 'lucide-react/icons/trending-up';
export { default as XIcon } from 'lucide-react/icons/x';
