"""A results file as one self-contained web page: the summary per configuration (solved, PAR-2,
time-outs, memory-outs, CNF sizes), a cactus plot, a scatter of any two configurations chosen
on the page, and the per-run table that sorts and filters. Everything is inlined (data,
script, style): the page needs no network to be viewed."""

from __future__ import annotations

import json
import statistics
from html import escape

from .summary import CONFIG, config_labels, solved, summarise

# the columns of the runs table, in order
SHOWN = ["puzzle", "config", "seed", "status", "verified", "variables", "clauses",
         "wall_seconds", "solve_seconds", "peak_mb", "timeout", "bug", "note"]


def _median(values: list[str]) -> str:
    numbers = [float(v) for v in values if v not in ("", None)]
    return f"{statistics.median(numbers):,.0f}" if numbers else ""


def summary_rows(rows: list[dict]) -> list[list[str]]:
    """One row per configuration: what ``summary.table`` says, memory-outs and the median
    CNF size added."""
    labels = config_labels(rows)
    by_config: dict[str, list[dict]] = {}
    for r in rows:
        by_config.setdefault(labels[tuple(r[k] for k in CONFIG)], []).append(r)
    out = []
    for line in summarise(rows):
        rs = by_config[line.config]
        out.append([line.config, f"{line.solved}/{line.runs}", f"{line.par2:.3f}",
                    "unsolved" if line.median == float("inf") else f"{line.median:.3f}",
                    str(line.timeouts), str(sum(r["status"] == "memout" for r in rs)),
                    str(line.unknown), str(line.bugs), _median([r["variables"] for r in rs]),
                    _median([r["clauses"] for r in rs])])
    return out


def html(rows: list[dict], title: str = "satdomino compare") -> str:
    """The report page of ``rows`` (a results file's rows)."""
    labels = config_labels(rows)
    runs = [{**{k: r.get(k, "") for k in SHOWN if k != "config"},
             "config": labels[tuple(r[k] for k in CONFIG)], "solved": solved(r)} for r in rows]
    head = ["configuration", "solved", "PAR-2 (mean s)", "median s", "time-outs",
            "memory-outs", "unknown", "bugs", "CNF variables (median)", "CNF clauses (median)"]
    table = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>\n"
                    for row in summary_rows(rows))
    data = json.dumps({"runs": runs, "configs": sorted(set(labels.values())),
                       "limit": max((float(r["timeout"] or 0) for r in rows), default=0),
                       "columns": SHOWN}).replace("</", "<\\/")
    return (_PAGE.replace("@TITLE@", escape(title))
            .replace("@HEAD@", "".join(f"<th>{escape(h)}</th>" for h in head))
            .replace("@SUMMARY@", table).replace("@COUNT@", str(len(rows)))
            .replace("@DATA@", data))


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>@TITLE@</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222;max-width:1200px}
table{border-collapse:collapse;font-size:13px;margin:.5em 0}
th,td{border:1px solid #ccc;padding:3px 7px;text-align:right}
th{background:#f1eee6;cursor:pointer;user-select:none}td:first-child,th:first-child{text-align:left}
#runs td:nth-child(2),#runs th:nth-child(2){text-align:left}
.plots{display:flex;flex-wrap:wrap;gap:24px}svg{background:#fff;border:1px solid #ddd}
.bad{color:#b00;font-weight:bold}input,select{font-size:13px;margin:0 .4em}
</style></head><body>
<h1>@TITLE@</h1>
<p>@COUNT@ runs. PAR-2: the mean run time, an unsolved run counted as twice its time limit.
Times are wall seconds: building, encoding, solving and checking the answer.</p>
<h2>Configurations</h2>
<table id="summary"><thead><tr>@HEAD@</tr></thead><tbody>
@SUMMARY@</tbody></table>
<div class="plots">
<div><h2>Cactus plot</h2><svg id="cactus" width="560" height="380"></svg></div>
<div><h2>Scatter</h2>
<label>x <select id="sx"></select></label><label>y <select id="sy"></select></label><br>
<svg id="scatter" width="400" height="400"></svg></div>
</div>
<h2>Runs</h2>
<p><label>filter <input id="filter" size="40" placeholder="any text in a row"></label>
<span id="shown"></span> (click a column to sort)</p>
<table id="runs"><thead><tr id="runshead"></tr></thead><tbody id="runsbody"></tbody></table>
<script id="data" type="application/json">@DATA@</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const NS = "http://www.w3.org/2000/svg";
const COLORS = ["#1f77b4","#d62728","#2ca02c","#ff7f0e","#9467bd","#8c564b","#e377c2",
                "#7f7f7f","#bcbd22","#17becf"];
function el(parent, tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  parent.appendChild(e); return e;
}
function logScale(lo, hi, a, b) {
  const l0 = Math.log10(lo), l1 = Math.log10(hi);
  return v => a + (Math.log10(Math.max(v, lo)) - l0) / (l1 - l0 || 1) * (b - a);
}
function ticks(svg, lo, hi, pos, vertical, w, h, pad) {
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
    const v = Math.pow(10, e); if (v < lo || v > hi) continue;
    const p = pos(v), label = v >= 1 ? String(v) : v.toPrecision(1);
    if (vertical) { el(svg, "line", {x1: pad, x2: w - 10, y1: p, y2: p, stroke: "#eee"});
      el(svg, "text", {x: pad - 4, y: p + 4, "text-anchor": "end", "font-size": 10}, label); }
    else { el(svg, "line", {x1: p, x2: p, y1: 10, y2: h - pad, stroke: "#eee"});
      el(svg, "text", {x: p, y: h - pad + 14, "text-anchor": "middle", "font-size": 10}, label); }
  }
}
function times(config) {
  return D.runs.filter(r => r.config === config && r.solved)
    .map(r => parseFloat(r.wall_seconds)).sort((a, b) => a - b);
}
function cactus() {
  const svg = document.getElementById("cactus"), w = 560, h = 380, pad = 46;
  svg.textContent = "";
  const all = D.configs.map(times), most = Math.max(1, ...all.map(t => t.length));
  const lo = Math.max(1e-3, Math.min(D.limit, ...all.flat()) / 1.5);
  const hi = Math.max(D.limit, lo * 10);
  const y = logScale(lo, hi, h - pad, 10), x = n => pad + n / most * (w - pad - 10);
  ticks(svg, lo, hi, y, true, w, h, pad);
  el(svg, "line", {x1: pad, x2: w - 10, y1: y(D.limit), y2: y(D.limit), stroke: "#999",
                   "stroke-dasharray": "4 3"});
  el(svg, "text", {x: w - 12, y: y(D.limit) - 4, "text-anchor": "end", "font-size": 10,
                   fill: "#777"}, `limit ${D.limit} s`);
  for (const n of [...new Set([0, Math.round(most / 2), most])]) {
    el(svg, "text", {x: x(n), y: h - pad + 14, "text-anchor": "middle", "font-size": 10}, n);
  }
  el(svg, "text", {x: w / 2, y: h - 8, "text-anchor": "middle", "font-size": 11}, "runs solved");
  el(svg, "text", {x: 12, y: h / 2, "font-size": 11, transform: `rotate(-90 12 ${h / 2})`,
                   "text-anchor": "middle"}, "seconds");
  all.forEach((t, i) => {
    const c = COLORS[i % COLORS.length];
    el(svg, "polyline", {fill: "none", stroke: c, "stroke-width": 1.5,
       points: t.map((v, k) => `${x(k + 1)},${y(v)}`).join(" ")});
    el(svg, "text", {x: pad + 8, y: 22 + 13 * i, fill: c, "font-size": 11},
       `${D.configs[i]} (${t.length})`);
  });
}
function scatter() {
  const svg = document.getElementById("scatter"), w = 400, h = 400, pad = 46;
  svg.textContent = "";
  const a = document.getElementById("sx").value, b = document.getElementById("sy").value;
  const key = r => r.puzzle + "\\u0000" + r.seed;
  const val = r => r.solved ? parseFloat(r.wall_seconds) : D.limit;
  const ta = new Map(D.runs.filter(r => r.config === a).map(r => [key(r), val(r)]));
  const pts = D.runs.filter(r => r.config === b && ta.has(key(r)))
    .map(r => [ta.get(key(r)), val(r)]);
  const lo = Math.max(1e-3, Math.min(D.limit, ...pts.flat()) / 1.5);
  const hi = Math.max(D.limit * 1.2, lo * 10);
  const x = logScale(lo, hi, pad, w - 10), y = logScale(lo, hi, h - pad, 10);
  ticks(svg, lo, hi, y, true, w, h, pad); ticks(svg, lo, hi, x, false, w, h, pad);
  el(svg, "line", {x1: x(lo), y1: y(lo), x2: x(hi), y2: y(hi), stroke: "#999"});
  for (const [p, q] of pts) el(svg, "circle", {cx: x(p), cy: y(q), r: 3.5, fill: "#1f77b4",
                                                "fill-opacity": 0.7});
  el(svg, "text", {x: w / 2, y: h - 8, "text-anchor": "middle", "font-size": 11}, a + " (s)");
  el(svg, "text", {x: 12, y: h / 2, "font-size": 11, transform: `rotate(-90 12 ${h / 2})`,
                   "text-anchor": "middle"}, b + " (s)");
  svg.setAttribute("data-points", String(pts.length));
}
let sortColumn = null, ascending = true;
function runsTable() {
  const text = document.getElementById("filter").value.toLowerCase();
  const hit = r => D.columns.some(c => String(r[c]).toLowerCase().includes(text));
  let rows = D.runs.filter(r => !text || hit(r));
  if (sortColumn !== null) {
    const num = rows.every(r => r[sortColumn] === "" || !isNaN(parseFloat(r[sortColumn])));
    rows = rows.slice().sort((p, q) => {
      const u = p[sortColumn], v = q[sortColumn];
      const c = num ? (parseFloat(u) || 0) - (parseFloat(v) || 0)
                    : String(u).localeCompare(String(v));
      return ascending ? c : -c;
    });
  }
  const body = document.getElementById("runsbody");
  body.textContent = "";
  for (const r of rows) {
    const tr = document.createElement("tr");
    for (const c of D.columns) {
      const td = document.createElement("td");
      td.textContent = r[c];
      if ((c === "bug" && r[c]) || (c === "status" && !r.solved)) td.className = "bad";
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  document.getElementById("shown").textContent = `${rows.length} of ${D.runs.length} runs`;
}
const head = document.getElementById("runshead");
for (const c of D.columns) {
  const th = document.createElement("th");
  th.textContent = c;
  th.addEventListener("click", () => {
    ascending = sortColumn === c ? !ascending : true; sortColumn = c; runsTable();
  });
  head.appendChild(th);
}
for (const id of ["sx", "sy"]) {
  const s = document.getElementById(id);
  D.configs.forEach((c, i) => { const o = document.createElement("option"); o.value = c;
    o.textContent = c; s.appendChild(o); if (i === (id === "sy" ? 1 : 0)) o.selected = true; });
  s.addEventListener("change", scatter);
}
document.getElementById("filter").addEventListener("input", runsTable);
cactus(); scatter(); runsTable();
</script></body></html>
"""
