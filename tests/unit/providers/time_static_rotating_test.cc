// time_static and time_rotating through the provider API with the fake clock (it starts at
// 2023-11-14T22:13:20Z): create, a clean re-plan, triggers replacing, import, and
// time_rotating's rotation (the refresh finds the object gone; without a refresh, the plan
// replaces it).
#include "providers/builtin/zoned_time.h"
#include "tests/unit/providers/provider_test_support.h"

namespace strata::testing {
namespace {

class TimeTypesTest : public ProviderTest {};

TEST_F(TimeTypesTest, StaticTakesTheClockOnceAndTriggersReplace) {
  Value config = Obj({{"triggers", StrMap({{"ami", "1"}})}});
  Value state = Create("time_static", config);
  EXPECT_EQ(At(state, "id").AsString(), "2023-11-14T22:13:20Z");
  EXPECT_EQ(At(state, "rfc3339").AsString(), "2023-11-14T22:13:20Z");
  EXPECT_EQ(At(state, "unix").AsNumber(), 1700000000);
  EXPECT_EQ(At(state, "year").AsNumber(), 2023);
  EXPECT_EQ(At(state, "month").AsNumber(), 11);
  EXPECT_EQ(At(state, "day").AsNumber(), 14);
  EXPECT_EQ(At(state, "hour").AsNumber(), 22);
  EXPECT_EQ(At(state, "minute").AsNumber(), 13);
  EXPECT_EQ(At(state, "second").AsNumber(), 20);
  clock_->Advance(std::chrono::hours(30));
  PlanResult again = Plan("time_static", state, config);
  EXPECT_TRUE(again.requires_replace.empty());
  EXPECT_TRUE(again.planned.Equals(state)) << "the time is taken once";
  PlanResult triggers = Plan("time_static", state, Obj({{"triggers", StrMap({{"ami", "2"}})}}));
  EXPECT_TRUE(Replaces(triggers, "triggers"));
  EXPECT_TRUE(At(triggers.planned, "unix").IsUnknown());
}

TEST_F(TimeTypesTest, StaticGivenTimeKeepsItsOffset) {
  Value config = Obj({{"rfc3339", S("2024-02-29T23:30:00-05:00")}});
  Value state = Create("time_static", config);
  EXPECT_EQ(At(state, "rfc3339").AsString(), "2024-02-29T23:30:00-05:00");
  EXPECT_EQ(At(state, "day").AsNumber(), 29);
  EXPECT_EQ(At(state, "hour").AsNumber(), 23);
  EXPECT_EQ(At(state, "unix").AsNumber(), 1709267400);  // 2024-03-01T04:30:00Z
  EXPECT_TRUE(Plan("time_static", state, config).requires_replace.empty());
  EXPECT_TRUE(Replaces(Plan("time_static", state, Obj({{"rfc3339", S("2024-03-01T00:00:00Z")}})), "rfc3339"));
  PlanResult bad = Plan("time_static", Value(), Obj({{"rfc3339", S("yesterday")}}));
  ASSERT_TRUE(bad.diags.HasErrors());
  EXPECT_NE(Messages(bad.diags).find("\"yesterday\" is not an RFC 3339 timestamp"), std::string::npos);
}

TEST_F(TimeTypesTest, StaticImportTakesATimestamp) {
  ApplyResult imported = provider_->ImportResource(ctx_, "time_static", "2020-02-12T06:36:13Z");
  ASSERT_FALSE(imported.diags.HasErrors()) << Messages(imported.diags);
  EXPECT_EQ(At(imported.state, "id").AsString(), "2020-02-12T06:36:13Z");
  EXPECT_EQ(At(imported.state, "unix").AsNumber(), 1581489373);
  EXPECT_EQ(At(imported.state, "second").AsNumber(), 13);
  PlanResult after = Plan("time_static", imported.state, Obj({}));
  EXPECT_TRUE(after.requires_replace.empty());
  EXPECT_TRUE(after.planned.Equals(imported.state));
  EXPECT_TRUE(provider_->ImportResource(ctx_, "time_static", "2020-02-12").diags.HasErrors());
}

TEST_F(TimeTypesTest, RotatingComputesTheRotationAndGoesAwayAfterIt) {
  Value config = Obj({{"rotation_days", N(30)}});
  Value state = Create("time_rotating", config);
  EXPECT_EQ(At(state, "id").AsString(), "2023-11-14T22:13:20Z");
  EXPECT_EQ(At(state, "rfc3339").AsString(), "2023-11-14T22:13:20Z");
  EXPECT_EQ(At(state, "rotation_rfc3339").AsString(), "2023-12-14T22:13:20Z");
  EXPECT_EQ(At(state, "month").AsNumber(), 12);  // the rotation's fields, as Terraform's
  EXPECT_EQ(At(state, "day").AsNumber(), 14);
  EXPECT_EQ(At(state, "unix").AsNumber(), 1700000000 + 30 * 86400);

  clock_->Advance(std::chrono::hours(24 * 30));  // exactly at the rotation time: not yet
  ReadResult read = provider_->ReadResource(ctx_, "time_rotating", state);
  EXPECT_FALSE(read.gone);
  PlanResult again = Plan("time_rotating", read.state, config);
  EXPECT_TRUE(again.requires_replace.empty());
  EXPECT_TRUE(again.planned.Equals(state));

  clock_->Advance(std::chrono::seconds(1));
  EXPECT_TRUE(provider_->ReadResource(ctx_, "time_rotating", state).gone) << "Terraform's Read removes it";
  PlanResult stale = Plan("time_rotating", state, config);  // as with -refresh=false
  EXPECT_TRUE(Replaces(stale, "rotation_rfc3339"));
  EXPECT_TRUE(At(stale.planned, "rotation_rfc3339").IsUnknown());
  Value next = Create("time_rotating", config);
  EXPECT_EQ(At(next, "rotation_rfc3339").AsString(), "2024-01-13T22:13:21Z");
}

TEST_F(TimeTypesTest, RotatingPeriodsAndTheirPrecedence) {
  auto rotation = [&](Value config) { return At(Create("time_rotating", config), "rotation_rfc3339").AsString(); };
  Value base = Obj({{"rfc3339", S("2024-01-31T10:00:00+01:00")}});
  EXPECT_EQ(rotation(attrs::With(base, "rotation_minutes", N(90))), "2024-01-31T11:30:00+01:00");
  EXPECT_EQ(rotation(attrs::With(base, "rotation_hours", N(24))), "2024-02-01T10:00:00+01:00");
  EXPECT_EQ(rotation(attrs::With(base, "rotation_months", N(1))), "2024-03-02T10:00:00+01:00");  // Go's AddDate
  EXPECT_EQ(rotation(attrs::With(base, "rotation_years", N(1))), "2025-01-31T10:00:00+01:00");
  EXPECT_EQ(rotation(attrs::With(attrs::With(base, "rotation_days", N(1)), "rotation_hours", N(1))),
            "2024-01-31T11:00:00+01:00")
      << "hours are applied after days and win, as in hashicorp/time";
  Value given = Create("time_rotating", Obj({{"rotation_rfc3339", S("2030-06-01T00:00:00Z")}}));
  EXPECT_EQ(At(given, "rotation_rfc3339").AsString(), "2030-06-01T00:00:00Z");
  EXPECT_EQ(At(given, "year").AsNumber(), 2030);
  EXPECT_TRUE(Plan("time_rotating", given, Obj({{"rotation_rfc3339", S("2030-06-01T00:00:00Z")}})).planned.Equals(given));

  for (Value bad : {Obj({}), Obj({{"rotation_days", N(0)}}), Obj({{"rotation_hours", N(1.5)}}),
                    Obj({{"rotation_rfc3339", S("soon")}})}) {
    EXPECT_TRUE(Plan("time_rotating", Value(), bad).diags.HasErrors());
  }
}

TEST_F(TimeTypesTest, RotatingPeriodChangeUpdatesInPlaceFromTheSameBase) {
  Value state = Create("time_rotating", Obj({{"rotation_days", N(30)}}));
  clock_->Advance(std::chrono::hours(24));
  PlanResult longer = Plan("time_rotating", state, Obj({{"rotation_days", N(60)}}));
  EXPECT_TRUE(longer.requires_replace.empty());
  EXPECT_EQ(At(longer.planned, "rotation_rfc3339").AsString(), "2024-01-13T22:13:20Z");
  EXPECT_EQ(At(longer.planned, "id").AsString(), "2023-11-14T22:13:20Z");
  ApplyResult updated = provider_->UpdateResource(ctx_, "time_rotating", state, longer.planned);
  ASSERT_FALSE(updated.diags.HasErrors());
  EXPECT_TRUE(Plan("time_rotating", updated.state, Obj({{"rotation_days", N(60)}})).planned.Equals(updated.state));
  EXPECT_TRUE(Replaces(Plan("time_rotating", state, Obj({{"rotation_days", N(30)}, {"triggers", StrMap({{"a", "b"}})}})),
                       "triggers"));
}

TEST_F(TimeTypesTest, RotatingImportForms) {
  ApplyResult two = provider_->ImportResource(ctx_, "time_rotating", "2023-11-01T00:00:00Z,2023-12-01T00:00:00Z");
  ASSERT_FALSE(two.diags.HasErrors()) << Messages(two.diags);
  EXPECT_EQ(At(two.state, "rotation_rfc3339").AsString(), "2023-12-01T00:00:00Z");
  EXPECT_EQ(At(two.state, "id").AsString(), "2023-11-01T00:00:00Z");
  EXPECT_TRUE(Plan("time_rotating", two.state, Obj({{"rotation_rfc3339", S("2023-12-01T00:00:00Z")}})).planned.Equals(two.state));

  ApplyResult six = provider_->ImportResource(ctx_, "time_rotating", "2023-11-01T00:00:00Z,,1,,,");
  ASSERT_FALSE(six.diags.HasErrors()) << Messages(six.diags);
  EXPECT_EQ(At(six.state, "rotation_months").AsNumber(), 1);
  EXPECT_EQ(At(six.state, "rotation_rfc3339").AsString(), "2023-12-01T00:00:00Z");
  PlanResult after = Plan("time_rotating", six.state, Obj({{"rotation_months", N(1)}}));
  EXPECT_TRUE(after.requires_replace.empty());
  EXPECT_TRUE(after.planned.Equals(six.state));
  for (const char* bad : {"2023-11-01T00:00:00Z", "2023-11-01T00:00:00Z,,,,,", "2023-11-01T00:00:00Z,x,,,,",
                          "yesterday,2023-12-01T00:00:00Z"}) {
    EXPECT_TRUE(provider_->ImportResource(ctx_, "time_rotating", bad).diags.HasErrors()) << bad;
  }
}

TEST(ZonedTimeTest, ParsesAndFormatsAsGoRfc3339) {
  auto t = builtin::ParseZonedRfc3339("2024-03-01T09:00:00.123+05:30");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->offset_minutes, 330);
  EXPECT_EQ(builtin::FormatZonedRfc3339(*t), "2024-03-01T09:00:00+05:30");
  EXPECT_EQ(builtin::FormatZonedRfc3339(builtin::AddDate(*t, 0, 12, -1)), "2025-02-28T09:00:00+05:30");
  for (const char* bad : {"2024-02-30T00:00:00Z", "2024-03-01 09:00:00Z", "2024-03-01T09:00:00", "2024-03-01T25:00:00Z",
                          "2024-03-01T09:00:00+5:30"}) {
    EXPECT_FALSE(builtin::ParseZonedRfc3339(bad)) << bad;
  }
}

}  // namespace
}  // namespace strata::testing
