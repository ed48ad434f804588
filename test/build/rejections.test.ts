/** How a rejected row's offending value is shown in the operator's report: as text, cut, nulls kept. */
import { describe, expect, it } from "vitest";
import { Rejections, toSampleText } from "../../build/model/rejections.ts";

describe("toSampleText", () => {
  it.each([
    [null, null],
    [undefined, null],
    ["soon", "soon"],
    [12.5, "12.5"],
    ["x".repeat(80), "x".repeat(80)],
    ["x".repeat(81), `${"x".repeat(80)}…`],
    // Cut by code points, so an emoji is never split into half a surrogate pair.
    ["😀".repeat(100), `${"😀".repeat(80)}…`],
    ["<script>\u0007", "<script>\u0007"],
  ])("shows %j as %j", (value, shown) => {
    expect(toSampleText(value)).toBe(shown);
  });
});

describe("Rejections", () => {
  it("counts every row, keeps ten samples, and makes a sample only when it keeps it", () => {
    const rejections = new Rejections();
    let made = 0;
    for (let i = 0; i < 25; i++) rejections.add("report_unknown_company", () => ({ report_id: i, made: ++made }), 2);
    const [summary] = rejections.toJSON();
    expect(summary).toMatchObject({ reason: "report_unknown_company", count: 50 });
    expect(summary!.samples.map((s) => s.report_id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(made).toBe(10);
    expect(rejections.total).toBe(50);
  });
});
