// A SKU's balance after each movement of the period as a small SVG line, in the dashboard chart's frame,
// with a title and description that say in words what it shows.
import { useTranslation } from "react-i18next";
import { CHART_HEIGHT, CHART_WIDTH, ChartAxes, chartScale } from "../components/chart-frame";
import { useFormat } from "../i18n/react";

const LABELLED_BY = ["balance-chart-title", "balance-chart-desc"].join(" ");

export interface BalancePoint {
  /** The movement's Kyiv moment as the page shows it (or the warehouse's own text). */
  label: string;
  balance: number;
}

export function BalanceChart({ sku, points }: { sku: string; points: BalancePoint[] }) {
  const { t } = useTranslation("stock");
  const format = useFormat();
  const balances = points.map((point) => point.balance);
  const scale = chartScale(points.length, { min: Math.min(0, ...balances), max: Math.max(1, ...balances) });
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last) return null;
  return (
    <figure style={{ margin: 0 }}>
      <svg
        role="img"
        aria-labelledby={LABELLED_BY}
        viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`}
        width="100%"
        data-testid="balance-chart"
      >
        <title id="balance-chart-title">{t("sku.chart.title", { sku })}</title>
        <desc id="balance-chart-desc">
          {t("sku.chart.desc", {
            count: points.length,
            first: format.number(first.balance),
            last: format.number(last.balance),
            min: format.number(Math.min(...balances)),
            max: format.number(Math.max(...balances)),
          })}
        </desc>
        <ChartAxes
          scale={scale}
          minLabel={format.number(scale.min)}
          maxLabel={format.number(scale.max)}
          firstLabel={first.label}
          lastLabel={last.label}
        />
        <polyline
          data-series="balance"
          fill="none"
          stroke="#2c6ecb"
          strokeWidth={2}
          strokeLinejoin="round"
          points={points.map((point, index) => `${scale.x(index)},${scale.y(point.balance)}`).join(" ")}
        />
      </svg>
    </figure>
  );
}
