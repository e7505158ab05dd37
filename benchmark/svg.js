'use strict';
// A hand-written SVG bar chart of the ratios napi/builtin (higher is better
// everywhere: for the e2e figure the bar is requests per CPU-second, i.e. the
// inverse of the CPU µs/request ratio), with the 95% intervals, a 1.0 line
// (the built-in) and, where bars carry one (npm run bench -- --targets), each
// figure's target as a dashed line.

function esc(s) {
  return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

// bars: [{ group, label, value, ci: [lo, hi] | null, target: number | null, paired: number | null }]
function renderSvg(bars, machine = {}) {
  const W = 820, H = 432;
  const M = { left: 56, right: 24, top: 54, bottom: 86 };
  const plotW = W - M.left - M.right, plotH = H - M.top - M.bottom;
  const groups = [];
  for (const bar of bars) {
    let g = groups.find((x) => x.name === bar.group);
    if (!g) groups.push((g = { name: bar.group, bars: [] }));
    g.bars.push(bar);
  }
  const gap = 1; // slots between groups
  const slots = bars.length + gap * Math.max(0, groups.length - 1);
  const slotW = plotW / Math.max(1, slots);
  let top = 1.2;
  for (const b of bars) {
    for (const v of [b.value, b.target, b.ci ? b.ci[1] : 0]) if (Number.isFinite(v)) top = Math.max(top, v);
  }
  top = Math.min(Math.ceil(top * 1.1 * 2) / 2, 10);
  const y = (v) => M.top + plotH - (Math.max(0, Math.min(v, top)) / top) * plotH;
  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" ` +
           'font-family="Helvetica, Arial, sans-serif" font-size="12">');
  out.push(`<rect width="${W}" height="${H}" fill="#ffffff"/>`);
  out.push(`<text x="${W / 2}" y="20" text-anchor="middle" font-size="15" font-weight="bold">` +
           'llhttp-napi / built-in parser (higher is better)</text>');
  const sub = [machine.node && `Node ${machine.node}`, machine.cpu && `${machine.cpu}, ${machine.cores} cores`,
    machine.date && machine.date.slice(0, 10)].filter(Boolean).join(' · ');
  out.push(`<text x="${W / 2}" y="38" text-anchor="middle" fill="#555">${esc(sub)}</text>`);
  // y axis and grid
  const step = top <= 2 ? 0.25 : top <= 4 ? 0.5 : 1;
  for (let v = 0; v <= top + 1e-9; v += step) {
    out.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#eee"/>`);
    out.push(`<text x="${M.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end" fill="#444">${v.toFixed(2).replace(/0$/, '')}×</text>`);
  }
  out.push(`<line x1="${M.left}" x2="${M.left}" y1="${M.top}" y2="${M.top + plotH}" stroke="#444"/>`);
  out.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${M.top + plotH}" y2="${M.top + plotH}" stroke="#444"/>`);
  let slot = 0;
  for (const [gi, g] of groups.entries()) {
    if (gi > 0) slot += gap;
    const gx0 = M.left + slot * slotW;
    const gx1 = gx0 + g.bars.length * slotW;
    for (const b of g.bars) {
      const x = M.left + slot * slotW + slotW * 0.15;
      const w = slotW * 0.7;
      const judged = Number.isFinite(b.target);
      const fill = !judged ? '#4f6d8f' : b.value >= b.target ? '#3a7d44' : '#d9822b';
      if (Number.isFinite(b.value)) {
        const yv = y(b.value);
        out.push(`<rect x="${x.toFixed(1)}" y="${yv.toFixed(1)}" width="${w.toFixed(1)}" ` +
                 `height="${(M.top + plotH - yv).toFixed(1)}" fill="${fill}">` +
                 `<title>${esc(`${g.name} ${b.label}: ${b.value.toFixed(3)}×` +
                   (judged ? ` (target ${b.target.toFixed(2)}×)` : ''))}</title></rect>`);
        if (b.ci) {
          const cx = x + w / 2;
          const [lo, hi] = [y(b.ci[0]), y(b.ci[1])];
          out.push(`<path d="M${cx.toFixed(1)} ${lo.toFixed(1)}V${hi.toFixed(1)}M${(cx - 4).toFixed(1)} ${lo.toFixed(1)}` +
                   `h8M${(cx - 4).toFixed(1)} ${hi.toFixed(1)}h8" stroke="#222" stroke-width="1.2" fill="none"/>`);
        }
        if (Number.isFinite(b.paired)) {
          const px = x + w / 2, py = y(b.paired);
          out.push(`<path d="M${px.toFixed(1)} ${(py - 6).toFixed(1)}l6 6l-6 6l-6 -6z" fill="#1f4e9c" stroke="#fff" stroke-width="1">` +
                   `<title>${esc(`${g.name} ${b.label}: paired steady-state ratio ${b.paired.toFixed(3)}×`)}</title></path>`);
        }
        const inside = M.top + plotH - yv > 22;
        out.push(`<text x="${(x + w / 2).toFixed(1)}" y="${(inside ? M.top + plotH - 6 : yv - 5).toFixed(1)}" ` +
                 `text-anchor="middle" font-size="11" font-weight="bold" fill="${inside ? '#fff' : '#222'}">${b.value.toFixed(2)}</text>`);
      }
      out.push(`<text x="${(x + w / 2).toFixed(1)}" y="${M.top + plotH + 16}" text-anchor="middle" font-size="11">` +
               `${esc(b.label)}</text>`);
      slot++;
    }
    // the group's target (all bars of a group share it), named under the group
    const target = g.bars[0].target;
    if (Number.isFinite(target)) {
      out.push(`<line x1="${gx0.toFixed(1)}" x2="${gx1.toFixed(1)}" y1="${y(target).toFixed(1)}" y2="${y(target).toFixed(1)}" ` +
               'stroke="#c0392b" stroke-width="1.5" stroke-dasharray="6 4"/>');
    }
    const names = { 'bench-parser': 'bench-parser (len)', fragmented: 'fragmented (len/frags)', e2e: 'e2e' };
    out.push(`<text x="${((gx0 + gx1) / 2).toFixed(1)}" y="${M.top + plotH + 34}" text-anchor="middle" font-weight="bold">` +
             `${esc(names[g.name] || g.name)}</text>`);
    if (Number.isFinite(target)) {
      out.push(`<text x="${((gx0 + gx1) / 2).toFixed(1)}" y="${M.top + plotH + 50}" text-anchor="middle" fill="#c0392b" ` +
               `font-size="11">target ≥ ${target.toFixed(2)}×</text>`);
    }
  }
  // the built-in: 1.0
  out.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${y(1).toFixed(1)}" y2="${y(1).toFixed(1)}" stroke="#222" stroke-width="1.5"/>`);
  const judged = bars.some((b) => Number.isFinite(b.target));
  out.push(`<text x="${M.left}" y="${H - 20}" fill="#555" font-size="11">` +
           `bars: median ratio napi/builtin of fresh-process runs${judged ? ' (green: target met, orange: missed)' : ''}; ` +
           'e2e: one server at a time; whiskers: 95% CI</text>');
  out.push(`<text x="${M.left}" y="${H - 6}" fill="#555" font-size="11">` +
           'blue diamonds: paired ratio (same process / same window); solid line: built-in = 1.0' +
           `${judged ? '; dashed: targets' : ''}</text>`);
  out.push('</svg>');
  return out.join('\n') + '\n';
}

module.exports = { renderSvg };
