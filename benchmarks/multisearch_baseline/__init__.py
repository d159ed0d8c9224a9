"""engine/multisearch.py as it was before issue 26's speed-up (at 4574cb6): a
copy, never edited, so benchmarks/multisearch_speed.py can search the same
tree with both and compare. Its search helpers come from the frozen
benchmarks/search_baseline, so later changes to engine/search.py leave it as it was."""
