/* Clubsite charts: every <canvas data-chart="ID"> is drawn from the JSON of the element ID
   (Django's json_script), with the vendored Chart.js. No inline script, so a strict CSP holds.
   The JSON: {"type": "line"|"bar", "labels": [...], "datasets": [{"label": ..., "data": [...]}],
   "reverse": false (true for ranks: 1 at the top), "y_label": "..."}.
   Every chart stands beside a table with the same numbers, for screen readers and print. */
(function () {
  "use strict";
  function draw(canvas) {
    var source = document.getElementById(canvas.dataset.chart);
    if (!source || typeof Chart === "undefined") { return; }
    var spec = JSON.parse(source.textContent);
    new Chart(canvas, {
      type: spec.type || "line",
      data: { labels: spec.labels, datasets: spec.datasets },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        spanGaps: true,
        plugins: { legend: { display: (spec.datasets || []).length > 1 } },
        scales: {
          y: {
            reverse: !!spec.reverse,
            title: { display: !!spec.y_label, text: spec.y_label || "" },
            ticks: spec.integer ? { precision: 0 } : {}
          }
        }
      }
    });
  }
  document.querySelectorAll("canvas[data-chart]").forEach(draw);
})();
