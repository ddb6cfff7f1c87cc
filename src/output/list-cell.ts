// A list in one cell of a terminal table: every item, joined with ", ". When its
// column is too narrow it keeps the items that fit whole and says how many it left
// out (`mem_a, mem_b, +2 more`), never an item cut mid-way with no sign of the rest.
// Only a terminal shortens a list: piped rows and CSV carry it whole, as JSON.

import { displayWidth, truncate } from './width.js';

export class ListCell {
  constructor(readonly items: readonly string[]) {}

  /** The whole list, as a cell that fits shows it. */
  toString(): string {
    return this.items.join(', ');
  }

  /** The list in at most `width` cells. */
  fit(width: number, ellipsis: string): string {
    const { items } = this;
    const whole = this.toString();
    if (items.length <= 1 || displayWidth(whole) <= width) return truncate(whole, width, ellipsis);
    // The most items whose text and the count of the rest fit.
    let best = '';
    let head = '';
    for (let k = 1; k < items.length; k++) {
      head = k === 1 ? items[0]! : `${head}, ${items[k - 1]}`;
      const text = `${head}, +${items.length - k} more`;
      if (displayWidth(text) > width) break;
      best = text;
    }
    if (best) return best;
    // Not even the first item whole: the first one cut, then the count; else the count.
    const more = `, +${items.length - 1} more`;
    if (width - more.length >= 4) return truncate(items[0]!, width - more.length, ellipsis) + more;
    return truncate(`${items.length} items`, width, ellipsis);
  }
}

/** A table cell: text, or a list that shortens by its items. */
export type Cell = string | ListCell;

export const cellString = (cell: Cell | undefined): string => (cell === undefined ? '' : String(cell));
