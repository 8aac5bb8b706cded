// Orders sent, shipped and delivered per day as a picture: an SVG line chart whose title and description
// say in words what it shows, for a screen reader and for anyone who cannot tell the lines apart.
import { useTranslation } from "react-i18next";
import { CHART_HEIGHT, CHART_WIDTH, ChartAxes, chartScale } from "../components/chart-frame";
import { useFormat } from "../i18n/react";
import type { ChartDay } from "./queries.server";

const LABELLED_BY = ["orders-chart-title", "orders-chart-desc"].join(" ");
const SERIES = [
  { key: "sent", colour: "#2c6ecb", dash: undefined },
  { key: "shipped", colour: "#b98900", dash: "6 4" },
  { key: "delivered", colour: "#008060", dash: "2 3" },
] as const;

/** A date of the shop ("2026-03-29") as a moment inside that day wherever the shop is. */
const middayOf = (date: string) => `${date}T12:00:00Z`;

export function OrdersChart({ days }: { days: ChartDay[] }) {
  const { t } = useTranslation("dashboard");
  const format = useFormat();
  const scale = chartScale(days.length, {
    max: Math.max(1, ...days.flatMap((day) => [day.sent, day.shipped, day.delivered])),
  });
  const { x, y } = scale;
  const totals = { sent: 0, shipped: 0, delivered: 0 };
  for (const day of days) {
    totals.sent += day.sent;
    totals.shipped += day.shipped;
    totals.delivered += day.delivered;
  }
  const busiest = days.reduce<ChartDay | null>(
    (best, day) =>
      best === null || day.sent + day.shipped + day.delivered > best.sent + best.shipped + best.delivered
        ? day
        : best,
    null,
  );
  const first = days[0];
  const last = days[days.length - 1];
  const from = first ? format.date(middayOf(first.date)) : "";
  const to = last ? format.date(middayOf(last.date)) : "";
  const any = totals.sent + totals.shipped + totals.delivered > 0;
  const description = any
    ? t("chart.svgDesc", {
        sent: format.number(totals.sent),
        shipped: format.number(totals.shipped),
        delivered: format.number(totals.delivered),
        busiest: busiest ? format.date(middayOf(busiest.date)) : "",
      })
    : t("chart.svgDescEmpty");
  return (
    <figure style={{ margin: 0 }}>
      <svg
        role="img"
        aria-labelledby={LABELLED_BY}
        viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`}
        width="100%"
        data-testid="orders-chart"
      >
        <title id="orders-chart-title">{t("chart.svgTitle", { from, to })}</title>
        <desc id="orders-chart-desc">{description}</desc>
        <ChartAxes
          scale={scale}
          minLabel={format.number(0)}
          maxLabel={format.number(scale.max)}
          firstLabel={from}
          lastLabel={to}
        />
        {SERIES.map(({ key, colour, dash }) => (
          <polyline
            key={key}
            data-series={key}
            fill="none"
            stroke={colour}
            strokeWidth={2}
            strokeDasharray={dash}
            points={days.map((day, index) => `${x(index)},${y(day[key])}`).join(" ")}
          />
        ))}
      </svg>
      <figcaption>
        <ul aria-hidden="true" style={{ display: "flex", gap: "1rem", listStyle: "none", padding: 0 }}>
          {SERIES.map(({ key, colour, dash }) => (
            <li key={key} style={{ display: "flex", alignItems: "center", gap: "0.25rem" }}>
              <svg width="24" height="8" aria-hidden="true">
                <line x1="0" y1="4" x2="24" y2="4" stroke={colour} strokeWidth={2} strokeDasharray={dash} />
              </svg>
              {t(`chart.${key}`)}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
