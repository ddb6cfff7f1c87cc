// An invoice (or invoice preview) as a person wants to read it: its line items, then
// its totals, money with its currency where the record carries one. Piped: the same
// as tab-separated rows (line items, then `Total<TAB>value` lines, plain numbers).
// --json/--jsonl: the record unchanged.

import type { Context } from '../context.js';
import type { InvoiceLine, InvoicePreview } from '../api/billing.js';
import { printList, printRecord, printValue, type Column } from './print.js';
import { listOf } from '../api/record-source.js';

function money(value: unknown, currency: unknown, tty: boolean): unknown {
  if (typeof value !== 'number' || !tty) return value;
  const amount = value.toFixed(2);
  return typeof currency === 'string' && currency !== '' ? `${amount} ${currency}` : amount;
}

const TOTALS: Array<[string, string]> = [
  ['Subtotal', 'AmountSubtotal'],
  ['Tax', 'AmountTax'],
  ['Discount', 'AmountDiscount'],
  ['Total', 'Amount'],
  ['Amount due', 'AmountOutstanding'],
];

export async function printInvoicePreview(ctx: Context, invoice: InvoicePreview | undefined): Promise<void> {
  if (ctx.globals.json || ctx.globals.jsonl) return printRecord(ctx, invoice);
  if (!invoice || typeof invoice !== 'object') return printValue(ctx, invoice);
  const tty = ctx.io.stdoutIsTTY;
  const currency = invoice.Currency;
  const lines = Array.isArray(invoice.InvoiceLineItems) ? invoice.InvoiceLineItems.filter((l) => l && typeof l === 'object') : [];
  const columns: Column<InvoiceLine>[] = [
    { header: 'Description', get: (l) => l.Description ?? l.Name },
    { header: 'Quantity', get: (l) => l.Quantity, kind: 'number' },
    { header: 'Rate', get: (l) => money(l.UnitAmount ?? l.Rate ?? l.UnitPrice, l.Currency ?? currency, tty), kind: 'number' },
    { header: 'Amount', get: (l) => money(l.Amount, l.Currency ?? currency, tty), kind: 'number' },
  ];
  if (lines.length > 0) await printList(ctx, listOf(lines), columns);
  const record = invoice as Record<string, unknown>;
  const totals = TOTALS.filter(([, field]) => record[field] !== undefined && record[field] !== null).map(
    ([label, field]): [string, unknown] => [label, money(record[field], currency, tty)],
  );
  if (totals.length > 0) await printRecord(ctx, invoice, totals);
}
