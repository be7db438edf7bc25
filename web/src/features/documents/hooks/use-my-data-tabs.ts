import { useQuery } from '@tanstack/react-query';
import { libraryQueries, myDataSubCategories } from '../../../lib/queries/library-queries';

/** Returns My Data's sub-categories (the tabs) from the category index, with the query's state. */
export function useMyDataTabs() {
  const categories = useQuery(libraryQueries.categories());
  return { categories, tabs: myDataSubCategories(categories.data) };
}
