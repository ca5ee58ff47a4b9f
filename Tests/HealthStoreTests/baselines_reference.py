#!/usr/bin/env python3
"""Recomputes every row of `baselines` from `daily_rollups` alone, by the definitions of docs/baselines.md,
with the standard library only (sqlite3, statistics, math), and compares it with what healthetl stored.

Usage: baselines_reference.py DATABASE
Prints "checked N rows" and exits 0 when every row agrees; otherwise prints the differences and exits 1.
"""
import bisect
import datetime
import math
import sqlite3
import statistics
import sys

NORMAL_DAYS = 28
MINIMUM = 14
RANK_DAYS = 365
TREND_DAYS = 90


def t_density(x, nu):
    log_c = math.lgamma((nu + 1) / 2) - math.lgamma(nu / 2) - 0.5 * math.log(nu * math.pi)
    return math.exp(log_c - (nu + 1) / 2 * math.log1p(x * x / nu))


def central_probability(t, nu, steps=1000):
    """P(|T| <= t) as twice the integral of the density over [0, t] (Simpson's rule)."""
    h = t / steps
    total = t_density(0, nu) + t_density(t, nu)
    for i in range(1, steps):
        total += (4 if i % 2 else 2) * t_density(i * h, nu)
    return 2 * total * h / 3


def t_quantile_975(nu, cache={}):
    if nu not in cache:
        low, high = 0.0, 50.0
        for _ in range(48):
            middle = (low + high) / 2
            if central_probability(middle, nu) < 0.95:
                low = middle
            else:
                high = middle
        cache[nu] = (low + high) / 2
    return cache[nu]


def expected_rows(days):
    """days: {date: value}. Yields (date, dict of the row's columns)."""
    by_day = sorted(days.items())
    dates = [d for d, _ in by_day]
    for day, value in by_day:
        def window(first, last):
            return by_day[bisect.bisect_left(dates, first):bisect.bisect_right(dates, last)]

        normal = [v for _, v in window(day - datetime.timedelta(days=NORMAL_DAYS), day - datetime.timedelta(days=1))]
        row = {"value": value, "n": len(normal)}
        for name in ("mean", "sd", "median", "mad", "z", "percentile_365", "slope_30d", "slope_low", "slope_high"):
            row[name] = None
        if len(normal) >= MINIMUM:
            row["mean"] = statistics.mean(normal)
            row["sd"] = statistics.stdev(normal)
            row["median"] = statistics.median(normal)
            row["mad"] = 1.4826 * statistics.median([abs(v - row["median"]) for v in normal])
            row["z"] = (value - row["mean"]) / row["sd"] if row["sd"] != 0 else None
        year = [v for _, v in window(day - datetime.timedelta(days=RANK_DAYS - 1), day)]
        row["n_365"] = len(year)
        if len(year) >= MINIMUM:
            below = sum(1 for v in year if v < value)
            equal = sum(1 for v in year if v == value)
            row["percentile_365"] = 100 * (below + 0.5 * equal) / len(year)
        trend = window(day - datetime.timedelta(days=TREND_DAYS - 1), day)
        row["n_90"] = len(trend)
        if len(trend) >= MINIMUM:
            xs = [d.toordinal() for d, _ in trend]
            ys = [v for _, v in trend]
            x_mean, y_mean = sum(xs) / len(xs), sum(ys) / len(ys)
            sxx = sum((x - x_mean) ** 2 for x in xs)
            slope = sum((x - x_mean) * (y - y_mean) for x, y in zip(xs, ys)) / sxx
            sse = sum((y - y_mean - slope * (x - x_mean)) ** 2 for x, y in zip(xs, ys))
            se = math.sqrt(sse / (len(trend) - 2) / sxx)
            t = t_quantile_975(len(trend) - 2)
            row["slope_30d"] = 30 * slope
            row["slope_low"] = 30 * (slope - t * se)
            row["slope_high"] = 30 * (slope + t * se)
        yield day.isoformat(), row


def agrees(expected, actual, scale, relative):
    if expected is None or actual is None:
        return expected is None and actual is None
    return math.isclose(expected, actual, rel_tol=relative, abs_tol=1e-9 * scale)


def main():
    database = sqlite3.connect(sys.argv[1])
    columns = {}
    for date, name, value in database.execute(
        "SELECT date, column_name, value FROM daily_rollups WHERE value IS NOT NULL"
    ):
        columns.setdefault(name, {})[datetime.date.fromisoformat(date)] = value
    stored = {}
    names = ["value", "n", "mean", "sd", "median", "mad", "z", "n_365", "percentile_365", "n_90", "slope_30d",
             "slope_low", "slope_high"]
    for row in database.execute("SELECT column_name, date, " + ", ".join(names) + " FROM baselines"):
        stored[(row[0], row[1])] = dict(zip(names, row[2:]))
    problems = []
    checked = 0
    for name, days in sorted(columns.items()):
        scale = max(1.0, max(abs(v) for v in days.values()))
        for date, row in expected_rows(days):
            actual = stored.pop((name, date), None)
            checked += 1
            if actual is None:
                problems.append(f"{name} {date}: no row in baselines")
                continue
            for key, value in row.items():
                # z divides by a spread that may be small; the interval's t comes from numerical integration.
                relative = {"z": 1e-7, "slope_low": 1e-8, "slope_high": 1e-8}.get(key, 1e-9)
                if key in ("n", "n_365", "n_90"):
                    ok = value == actual[key]
                else:
                    ok = agrees(value, actual[key], 1.0 if key in ("z", "percentile_365") else scale, relative)
                if not ok:
                    problems.append(f"{name} {date} {key}: expected {value}, stored {actual[key]}")
    for (name, date) in sorted(stored):
        problems.append(f"{name} {date}: a row in baselines without a value in daily_rollups")
    print(f"checked {checked} rows")
    for problem in problems[:40]:
        print(problem)
    if problems:
        print(f"{len(problems)} differences")
        sys.exit(1)


main()
