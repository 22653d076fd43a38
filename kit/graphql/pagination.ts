import { type ClassType, Directive, Field, Int, ObjectType } from 'type-graphql';
import { MAX_PAGE_SIZE } from './page-limits.js';

export { MAX_PAGE_SIZE } from './page-limits.js';

/** Polar's page-based pagination block: exactly `total_count` and `max_page`. Shared by every subgraph's lists. */
@Directive('@shareable')
@ObjectType({ description: 'Page-based pagination of a list.', simpleResolvers: true })
export class Pagination {
  @Field(() => Int) totalCount!: number;
  @Field(() => Int) maxPage!: number;
}

export interface PageRequest {
  page: number;
  limit: number;
}

/** Clamps the limit and computes the offset; `page`/`limit` below 1 are rejected at the edge. */
export function pageWindow({ page, limit }: PageRequest): { limit: number; offset: number } {
  const clamped = Math.min(Math.max(limit, 1), MAX_PAGE_SIZE);
  return { limit: clamped, offset: (Math.max(page, 1) - 1) * clamped };
}

/**
 * The exact total a page already tells, without a `count(*)`: a page that is not full is the tail of
 * the list, so the total is its offset plus its length (an empty first page: zero). Undefined when the
 * page is full or lies beyond the end, where only a count knows. On PostgreSQL the count is the
 * dominant cost of a list request, and most lists fit in their first page.
 */
export function totalFromPage(length: number, window: { limit: number; offset: number }): number | undefined {
  if (length < window.limit && (length > 0 || window.offset === 0)) return window.offset + length;
  return undefined;
}

export function paginationOf(totalCount: number, limit: number): Pagination {
  const clamped = Math.min(Math.max(limit, 1), MAX_PAGE_SIZE);
  return { totalCount, maxPage: Math.ceil(totalCount / clamped) };
}

/** `ListResource<T>`: a page of items plus its pagination. Subclass it with `@ObjectType('XList')`. */
export function ListResource<T extends object>(itemType: ClassType<T>) {
  @ObjectType()
  abstract class ListResourceClass {
    @Field(() => [itemType]) items!: T[];
    @Field(() => Pagination) pagination!: Pagination;
  }
  return ListResourceClass;
}
