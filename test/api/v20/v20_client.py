"""A small Explore API v2.0 client, written the way public ones are (requests, records read as
records[i]['record']['fields'], pages followed by their `next` link), run by python-client.test.ts
against a duckportal it started: it prints what it read as one JSON object."""
import json
import sys

import requests

BASE = sys.argv[1].rstrip("/") + "/api/v2"


def get(path, **params):
    response = requests.get(BASE + path, params=params, timeout=30)
    response.raise_for_status()
    return response.json()


def all_records(dataset, **params):
    """Every record of a query, page by page through the `next` links."""
    page = get("/catalog/datasets/%s/records" % dataset, **params)
    rows = [r["record"]["fields"] for r in page["records"]]
    while True:
        following = [l["href"] for l in page["links"] if l["rel"] == "next"]
        if not following:
            return page["total_count"], rows
        page = requests.get(following[0], timeout=30).json()
        rows.extend(r["record"]["fields"] for r in page["records"])


def main():
    catalog = get("/catalog/datasets", limit=100)
    datasets = sorted(d["dataset"]["dataset_id"] for d in catalog["datasets"])
    total, airports = all_records(
        "airports", where="state = 'CA' and latitude > 37", select="iata, city", order_by="iata", limit=20
    )
    record = get("/catalog/datasets/airports/records/SFO")["record"]
    ratings = get(
        "/catalog/datasets/movies/aggregates",
        select="mpaa_rating, count(*) as n",
        group_by="mpaa_rating",
        order_by="mpaa_rating",
    )["aggregations"]
    print(json.dumps({
        "datasets": datasets,
        "total": total,
        "airports": airports,
        "sfo": {"id": record["id"], "name": record["fields"]["name"], "lat": record["fields"]["geo_point_2d"]["lat"]},
        "ratings": ratings,
    }))


if __name__ == "__main__":
    main()
