// SPDX-License-Identifier: GPL-2.0
/*
 * The canary's picture: one panel per workload, the change of each pair
 * (B vs A, in %) for the wall time and the clock-free counters, the
 * allowed loss +-delta, and the wall time's estimate and interval.
 */
#include <math.h>
#include <stdio.h>

#include "canary/report.h"

#define W 720
#define PANEL_H 260
#define LEFT 70
#define RIGHT 150
#define TOP 34
#define BOTTOM 30

static const char *const colour[CM_NR] = {
	[CM_WALL] = "#000000", [CM_MAJFLT] = "#d95f02",
	[CM_BLOCK_READS] = "#1b9e77", [CM_DEVICE_BYTES] = "#7570b3",
	[CM_FOLIOS] = "#e7298a",
};

/* The largest change to show, in %: at least 2 delta, at most 100 %. */
static double panel_range(const struct canary_opts *o,
			  const struct canary_result *r, int wl)
{
	double top = o->delta[wl] * 200;

	for (int m = 0; m < CM_NR; m++) {
		const struct canary_series *s = &r->s[wl][m];

		for (unsigned int i = 0; s->available && i < r->pairs; i++)
			if (fabs(expm1(s->d[i]) * 100) > top)
				top = fabs(expm1(s->d[i]) * 100);
	}
	top = top > 100 ? 100 : top;
	return ceil(top / 5) * 5;
}

static void hline(FILE *f, double y, const char *style, const char *label)
{
	fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" %s/>\n",
		LEFT, y, W - RIGHT, y, style);
	if (label)
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			LEFT - 6, y + 4, label);
}

static void panel(FILE *f, const struct canary_opts *o,
		  const struct canary_result *r, int wl, int y0)
{
	double range = panel_range(o, r, wl), plot_h = PANEL_H - TOP - BOTTOM;
	double step = (W - LEFT - RIGHT) / (double)(o->plan.pairs_max + 1);
	const struct canary_series *wall = &r->s[wl][CM_WALL];
	char label[32];

#define Y(pc) (y0 + TOP + plot_h / 2 - (fmax(-range, fmin(range, (pc))) / range) * plot_h / 2)
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s: %s, wall %s</text>\n",
		LEFT, y0 + 20, o->feature->name, o->workload[wl]->name,
		wall->available ? verdict_name(wall->v.verdict) : "n/a");
	if (wall->available && wall->v.hl.lo_valid && wall->v.hl.hi_valid)
		fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"#c6dbef\"/>\n",
			LEFT, Y(expm1(wall->v.hl.hi) * 100), W - LEFT - RIGHT,
			Y(expm1(wall->v.hl.lo) * 100) - Y(expm1(wall->v.hl.hi) * 100));
	snprintf(label, sizeof(label), "+%.0f%%", range);
	hline(f, Y(range), "stroke=\"#bbbbbb\"", label);
	snprintf(label, sizeof(label), "-%.0f%%", range);
	hline(f, Y(-range), "stroke=\"#bbbbbb\"", label);
	hline(f, Y(0), "stroke=\"#888888\"", "0");
	snprintf(label, sizeof(label), "+%.1f%%", o->delta[wl] * 100);
	hline(f, Y(o->delta[wl] * 100), "stroke=\"#d62728\" stroke-dasharray=\"6 4\"", label);
	snprintf(label, sizeof(label), "-%.1f%%", o->delta[wl] * 100);
	hline(f, Y(-o->delta[wl] * 100), "stroke=\"#2ca02c\" stroke-dasharray=\"6 4\"", label);
	if (wall->available)
		hline(f, Y(expm1(wall->v.hl.estimate) * 100), "stroke=\"#1f77b4\" stroke-width=\"2\"", NULL);
	for (unsigned int i = 0; i < r->pairs; i++) {
		double x = LEFT + step * (i + 1);

		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%u</text>\n",
			x, y0 + PANEL_H - 10, i + 1);
		for (int m = CM_NR - 1; m >= 0; m--) {
			const struct canary_series *s = &r->s[wl][m];

			if (!s->available)
				continue;
			if (m == CM_WALL)
				fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\"/>\n",
					x, Y(expm1(s->d[i]) * 100), colour[m]);
			else
				fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"6\" height=\"6\" fill=\"%s\"/>\n",
					x + 6 + 2 * m, Y(expm1(s->d[i]) * 100) - 3, colour[m]);
		}
	}
	for (int m = 0; m < CM_NR; m++)
		fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"%s\">%s%s</text>\n",
			W - RIGHT + 12, y0 + TOP + 16 * (m + 1), colour[m],
			m == CM_WALL ? "\u25cf " : "\u25a0 ", canary_metrics[m].name);
	fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#1f77b4\">estimate, interval</text>\n",
		W - RIGHT + 12, y0 + TOP + 16 * (CM_NR + 1));
#undef Y
}

void canary_report_svg(FILE *f, const struct canary_opts *o,
		       const struct canary_result *r)
{
	int h = PANEL_H * o->nr_workloads + 30;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", W, h, W, h);
	for (int wl = 0; wl < o->nr_workloads; wl++)
		panel(f, o, r, wl, wl * PANEL_H);
	fprintf(f, "<text x=\"%d\" y=\"%d\">change of B (vm.%s=%d) against A (=%d) per pair; verdict %s after %u pairs</text>\n",
		LEFT, h - 10, o->feature->name, r->arm[1], r->arm[0],
		verdict_name(r->verdict), r->pairs);
	fprintf(f, "</svg>\n");
}
