import type { CountPoint } from '../../src/shared/panelProtocol.ts';

const SVG = 'http://www.w3.org/2000/svg';

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number>,
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

/**
 * A bar chart in plain SVG, coloured by theme variables through CSS classes. The figure carries a
 * text summary for screen readers; each bar has a title with its exact value.
 */
export function barChart(points: CountPoint[], label: string, formatStart: (iso: string) => string): SVGSVGElement {
  const width = 300;
  const height = 90;
  const max = Math.max(1, ...points.map((point) => point.count));
  const barWidth = width / Math.max(1, points.length);
  const chart = svg('svg', {
    viewBox: `0 0 ${width} ${height + 14}`,
    class: 'chart',
    role: 'img',
    'aria-label': `${label}: ${points.map((point) => `${formatStart(point.start)} ${point.count}`).join(', ')}`,
  });
  points.forEach((point, index) => {
    const barHeight = (point.count / max) * height;
    const bar = svg('rect', {
      x: index * barWidth + 1,
      y: height - barHeight,
      width: Math.max(1, barWidth - 2),
      height: Math.max(barHeight, point.count > 0 ? 1 : 0),
      class: 'chart-bar',
    });
    const title = svg('title', {});
    title.textContent = `${formatStart(point.start)}: ${point.count}`;
    bar.append(title);
    chart.append(bar);
  });
  chart.append(svg('line', { x1: 0, y1: height, x2: width, y2: height, class: 'chart-axis' }));
  const first = points[0];
  const last = points[points.length - 1];
  if (first && last) {
    const start = svg('text', { x: 0, y: height + 12, class: 'chart-label' });
    start.textContent = formatStart(first.start);
    const end = svg('text', { x: width, y: height + 12, class: 'chart-label', 'text-anchor': 'end' });
    end.textContent = formatStart(last.start);
    chart.append(start, end);
  }
  return chart;
}

/** Horizontal bars for named counts (categories, subtypes). */
export function namedBars(counts: Record<string, number>, label: string): HTMLElement {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  const max = Math.max(1, ...entries.map(([, count]) => count));
  const list = document.createElement('dl');
  list.className = 'named-bars';
  list.setAttribute('aria-label', label);
  for (const [name, count] of entries) {
    const term = document.createElement('dt');
    term.textContent = name;
    const value = document.createElement('dd');
    const bar = document.createElement('span');
    bar.className = 'named-bar';
    bar.style.width = `${(count / max) * 100}%`;
    const number = document.createElement('span');
    number.className = 'named-count';
    number.textContent = count.toLocaleString();
    value.append(bar, number);
    list.append(term, value);
  }
  return list;
}
