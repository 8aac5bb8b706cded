// The frame the admin's line charts share (the dashboard's orders per day, a SKU's balance): the drawing's
// size, where the n-th point and a value fall, and the axes with the lowest and highest value and the
// first and last label. Each chart draws its own lines inside it and says in words what they show.

export const CHART_WIDTH = 720;
export const CHART_HEIGHT = 240;
export const CHART_PAD = { left: 40, right: 16, top: 16, bottom: 32 };

export interface ChartScale {
  /** The horizontal position of the index-th of `count` points, spread evenly. */
  x(index: number): number;
  /** The vertical position of a value between `min` and `max`. */
  y(value: number): number;
  min: number;
  max: number;
  count: number;
}

/** A scale for `count` points with values from `min` (0 unless lower) to `max` (at least min + 1). */
export function chartScale(count: number, values: { min?: number; max: number }): ChartScale {
  const min = Math.min(0, values.min ?? 0);
  const max = Math.max(min + 1, values.max);
  const plotWidth = CHART_WIDTH - CHART_PAD.left - CHART_PAD.right;
  const plotHeight = CHART_HEIGHT - CHART_PAD.top - CHART_PAD.bottom;
  return {
    x: (index) => CHART_PAD.left + (count > 1 ? (index / (count - 1)) * plotWidth : 0),
    y: (value) => CHART_PAD.top + plotHeight - ((value - min) / (max - min)) * plotHeight,
    min,
    max,
    count,
  };
}

/** The axes, the lowest and highest value written beside the vertical one, and the first and last label. */
export function ChartAxes(props: {
  scale: ChartScale;
  minLabel: string;
  maxLabel: string;
  firstLabel: string;
  lastLabel: string;
}) {
  const { scale, minLabel, maxLabel, firstLabel, lastLabel } = props;
  const { x, y } = scale;
  return (
    <>
      <line
        x1={CHART_PAD.left}
        y1={y(scale.min)}
        x2={CHART_WIDTH - CHART_PAD.right}
        y2={y(scale.min)}
        stroke="#8a8a8a"
      />
      <line x1={CHART_PAD.left} y1={CHART_PAD.top} x2={CHART_PAD.left} y2={y(scale.min)} stroke="#8a8a8a" />
      <text x={CHART_PAD.left - 6} y={y(scale.max) + 4} textAnchor="end" fontSize="11">
        {maxLabel}
      </text>
      <text x={CHART_PAD.left - 6} y={y(scale.min) + 4} textAnchor="end" fontSize="11">
        {minLabel}
      </text>
      <text x={x(0)} y={CHART_HEIGHT - 8} fontSize="11">
        {firstLabel}
      </text>
      <text x={x(Math.max(0, scale.count - 1))} y={CHART_HEIGHT - 8} textAnchor="end" fontSize="11">
        {lastLabel}
      </text>
    </>
  );
}
