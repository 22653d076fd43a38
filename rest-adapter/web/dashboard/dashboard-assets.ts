import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import express from 'express';
import { type StaticBody, staticBody } from '../../web-kit/compressed.js';

/**
 * The overview's charts: uPlot (a maintained, 50 KB charting library, an exact dependency) served from
 * node_modules by this process, no CDN, and our script that draws each metric column of the overview's
 * table. The table is the page without JavaScript; the charts are drawn over it when scripts run
 * (docs/dashboard.md#overview).
 */
export const DASHBOARD_SCRIPTS = ['/dashboard/assets/uplot.js', '/dashboard/assets/charts.js'];

const require = createRequire(import.meta.url);
const uplotDir = () => path.dirname(require.resolve('uplot/package.json'));

/** uPlot's own stylesheet, inlined in the overview's <style> (the pages' CSP allows inline styles only). */
let uplotCss: string | undefined;
export function uplotStylesheet(): string {
  uplotCss ??= readFileSync(path.join(uplotDir(), 'dist/uPlot.min.css'), 'utf8');
  return uplotCss;
}

/**
 * Reads the table `table[data-metrics]`: a `th[data-slug][data-kind]` per metric, a `tr[data-time]`
 * (Unix seconds) per period with a `td[data-value]` per metric. Money is minor units (`data-per-major`
 * turns it into the axis's major units), a percentage a fraction.
 */
const CHARTS_SCRIPT = `(function () {
  var table = document.querySelector('table[data-metrics]');
  var host = document.getElementById('charts');
  if (!table || !host || typeof uPlot === 'undefined') return;
  var heads = Array.prototype.slice.call(table.querySelectorAll('thead th[data-slug]'));
  var rows = Array.prototype.slice.call(table.querySelectorAll('tbody tr[data-time]'));
  var xs = rows.map(function (row) { return Number(row.getAttribute('data-time')); });
  var accent = getComputedStyle(document.documentElement).getPropertyValue('--accent').trim() || '#0062ff';
  heads.forEach(function (th, column) {
    var kind = th.getAttribute('data-kind');
    var per = kind === 'currency' ? Number(th.getAttribute('data-per-major') || '100') : kind === 'percentage' ? 0.01 : 1;
    var ys = rows.map(function (row) {
      var cell = row.querySelectorAll('td[data-value]')[column];
      return cell ? Number(cell.getAttribute('data-value')) / per : null;
    });
    var figure = document.createElement('figure');
    figure.className = 'chart';
    figure.setAttribute('data-chart', th.getAttribute('data-slug'));
    var caption = document.createElement('figcaption');
    caption.textContent = th.textContent;
    figure.appendChild(caption);
    host.appendChild(figure);
    var width = Math.max(280, figure.clientWidth - 24);
    new uPlot({
      width: width,
      height: 180,
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      series: [{}, { label: th.textContent, stroke: accent, width: 2, fill: 'rgba(0, 98, 255, 0.08)', points: { show: xs.length < 40 } }],
      axes: [{}, { size: 60 }],
    }, [xs, ys], figure);
  });
  host.removeAttribute('hidden');
})();
`;

const ASSET_CACHE = 'public, max-age=3600';

/** GET /dashboard/assets/<file>: only these two files. They change with a deploy, so browsers keep them an hour. */
export function createDashboardAssetsRouter(): express.Router {
  const router = express.Router();
  const files: Record<string, () => StaticBody> = {
    'uplot.js': () =>
      staticBody(() => readFileSync(path.join(uplotDir(), 'dist/uPlot.iife.min.js')), {
        type: 'text/javascript',
        cacheControl: ASSET_CACHE,
      }),
    'charts.js': () => staticBody(() => CHARTS_SCRIPT, { type: 'text/javascript', cacheControl: ASSET_CACHE }),
  };
  const bodies = new Map<string, StaticBody>();
  router.get('/dashboard/assets/:file', async (req, res, next) => {
    const file = req.params.file as string;
    if (!Object.hasOwn(files, file)) return next();
    const make = files[file];
    let body = bodies.get(file);
    if (!body) bodies.set(file, (body = make()));
    res.set({
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
    });
    await body.send(req, res);
  });
  return router;
}
