#!/bin/sh
# gen-gbench.sh N: a Google Benchmark program of N benchmarks, each its own
# function (benchtui splits them by call chain), for bench/run.sh's
# switching between benchmarks in the browser (bench/switch.c)
n=${1:-50}
echo '#include <benchmark/benchmark.h>'
echo '#include <vector>'
i=0
while [ $i -lt $n ]; do
cat <<EOT
static void BM_w$i(benchmark::State &st)
{
	std::vector<unsigned> v(64 + $i * 8, $i);
	for (auto _ : st) {
		unsigned s = 0;
		for (unsigned x : v)
			s += x * $((i + 3)) ^ (s >> 3);
		benchmark::DoNotOptimize(s);
	}
}
BENCHMARK(BM_w$i);
EOT
i=$((i + 1))
done
echo 'BENCHMARK_MAIN();'
